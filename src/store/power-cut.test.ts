import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, type SessionMemory } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

// A finish rewrites session.json without fsyncing its folder, and a new turn
// is never written to session.json at all. A power cut can therefore leave
// older versions of these files behind. These tests put the older versions
// back by hand (what a lost rename leaves) and check that boot recovery
// restores everything that was acknowledged.

const tempDir = useTempDirs();
const OWNER = "user-1";
const memoryOf = (summary: string): SessionMemory => ({ rollingSummary: summary, facts: [], pins: [], lastK: [] });

async function snapshot(path: string): Promise<() => Promise<void>> {
  const content = await readFile(path);
  return () => writeFile(path, content);
}

describe("after a power cut that loses the last renames", () => {
  it("restores a completed result from the log's final line when neither record was rewritten", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: OWNER });
    const sessionPath = join(dataDir, "sessions", s.id, "session.json");
    const { continuation } = await store.continuations.create(OWNER, s.id, { message: "why?", idempotencyKey: "k1" });
    const turnPath = join(dataDir, "sessions", s.id, "turns", `${continuation.id}.json`);
    const oldSession = await snapshot(sessionPath);
    const oldTurn = await snapshot(turnPath);
    await store.steps.append(OWNER, continuation.id, { type: "tool_call", detail: "intent" }, { durable: true });
    await store.steps.append(OWNER, continuation.id, { type: "summary", detail: "not yet flushed" });
    const finished = await store.continuations.update(OWNER, continuation.id, {
      status: "completed",
      response: { finalMessage: "because" },
      usage: { steps: 2, toolCalls: 1, tokensIn: 50 },
      memory: memoryOf("asked why"),
    });
    const shownVersion = store.sessions.get(OWNER, s.id)?.version ?? 0;
    await store.close();
    await oldSession();
    await oldTurn();
    expect(JSON.parse(await readFile(turnPath, "utf8"))).toMatchObject({ status: "pending" });

    const again = await openStore({ dataDir });
    expect(again.recovery.finishedFromLog).toBe(1);
    expect(again.recovery.interrupted).toEqual([]);
    const record = await again.continuations.get(OWNER, continuation.id);
    expect(record).toMatchObject({ status: "completed", response: { finalMessage: "because" }, usage: { steps: 2, toolCalls: 1, tokensIn: 50 } });
    expect(record?.updatedAt).toBeGreaterThanOrEqual(finished.createdAt);
    expect(JSON.parse(await readFile(turnPath, "utf8"))).toMatchObject({ status: "completed", response: { finalMessage: "because" } });
    const session = again.sessions.get(OWNER, s.id);
    expect(session?.messages.map((m) => [m.continuationId, m.status])).toEqual([[continuation.id, "completed"]]);
    expect(session?.openContinuations).toEqual([]);
    expect(session?.stats).toMatchObject({ turns: 1, steps: 2, toolCalls: 1, tokensIn: 50 });
    expect((await again.sessions.memory(OWNER, s.id)).rollingSummary).toBe("asked why");
    expect(session?.idempotencyKeys).toEqual([{ key: "k1", continuationId: continuation.id }]);
    // A caller that saw the lost version cannot write over the recovered one unnoticed.
    expect(session?.version).toBeGreaterThan(shownVersion);
    expect((await again.steps.read(OWNER, continuation.id)).map((l) => l.detail)).toEqual(["intent", "not yet flushed"]);
    await again.close();
  });

  it("redoes the stats and memory of a finish whose session.json rename was lost", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: OWNER });
    const oldSession = await snapshot(join(dataDir, "sessions", s.id, "session.json"));
    const first = await store.continuations.create(OWNER, s.id, { message: "one" });
    await store.continuations.update(OWNER, first.continuation.id, { status: "completed", response: { finalMessage: "1" }, usage: { steps: 1 }, memory: memoryOf("after one") });
    const second = await store.continuations.create(OWNER, s.id, { message: "two" });
    await store.continuations.update(OWNER, second.continuation.id, { status: "failed", error: { code: "x", message: "no" }, usage: { steps: 3 }, memory: memoryOf("after two") });
    await store.close();
    // Both session.json writes were lost; both turn files were kept (their folder was fsynced).
    await oldSession();

    const again = await openStore({ dataDir });
    expect(again.recovery.finishedFromLog).toBe(0);
    expect(again.recovery.interrupted).toEqual([]);
    const session = again.sessions.get(OWNER, s.id);
    expect(session?.messages.map((m) => m.status)).toEqual(["completed", "failed"]);
    expect(session?.stats).toMatchObject({ turns: 2, steps: 4 });
    expect((await again.sessions.memory(OWNER, s.id)).rollingSummary).toBe("after two");
    expect(await again.continuations.get(OWNER, second.continuation.id)).toMatchObject({ status: "failed", error: { code: "x" } });
    await again.close();

    // The repair is written: a second boot finds nothing to do and counts nothing twice.
    const third = await openStore({ dataDir });
    expect(third.recovery.problems).toEqual([]);
    expect(third.sessions.get(OWNER, s.id)?.stats).toMatchObject({ turns: 2, steps: 4 });
    await third.close();
  });

  it("keeps an idempotency key across a crash although creating the turn did not write session.json", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: OWNER });
    const sessionPath = join(dataDir, "sessions", s.id, "session.json");
    const before = await readFile(sessionPath, "utf8");
    const { continuation } = await store.continuations.create(OWNER, s.id, { message: "turn the heating down", idempotencyKey: "req-7" });
    expect(await readFile(sessionPath, "utf8")).toBe(before);
    expect(store.sessions.get(OWNER, s.id)?.idempotencyKeys).toEqual([{ key: "req-7", continuationId: continuation.id }]);
    // No close(): the process dies with the turn open.

    const again = await openStore({ dataDir });
    expect(again.recovery.interrupted).toEqual([{ sessionId: s.id, continuationId: continuation.id, previousStatus: "pending", lastDurableSeq: 0 }]);
    expect(again.sessions.get(OWNER, s.id)?.idempotencyKeys).toEqual([{ key: "req-7", continuationId: continuation.id }]);
    const repeat = await again.continuations.create(OWNER, s.id, { message: "turn the heating down", idempotencyKey: "req-7" });
    expect(repeat.created).toBe(false);
    expect(repeat.continuation).toMatchObject({ id: continuation.id, status: "interrupted" });
    const onDisk = JSON.parse(await readFile(sessionPath, "utf8")) as { idempotencyKeys: unknown[] };
    expect(onDisk.idempotencyKeys).toEqual([{ key: "req-7", continuationId: continuation.id }]);
    await again.close();
  });

  it("gives a reused idempotency key to the later turn when both come back", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: OWNER });
    const first = await store.continuations.create(OWNER, s.id, { message: "one", idempotencyKey: "k" });
    await store.continuations.update(OWNER, first.continuation.id, { status: "completed", response: { finalMessage: "1" } });
    // The first turn's file becomes unreadable, so the key goes to a new turn.
    await writeFile(join(dataDir, "sessions", s.id, "turns", `${first.continuation.id}.json`), "{damaged");
    const second = await store.continuations.create(OWNER, s.id, { message: "one", idempotencyKey: "k" });
    expect(second.created).toBe(true);
    // No close(): session.json on disk still gives the key to the first turn.

    const again = await openStore({ dataDir });
    expect(again.sessions.get(OWNER, s.id)?.idempotencyKeys).toEqual([{ key: "k", continuationId: second.continuation.id }]);
    const repeat = await again.continuations.create(OWNER, s.id, { message: "one", idempotencyKey: "k" });
    expect(repeat).toMatchObject({ created: false, continuation: { id: second.continuation.id } });
    await again.close();
  });

  it("does not count again a swept turn whose files outlived the sweep", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: OWNER });
    const { continuation } = await store.continuations.create(OWNER, s.id, { message: "old" });
    await store.continuations.update(OWNER, continuation.id, { status: "completed", response: { finalMessage: "ok" }, usage: { steps: 5 } });
    await store.close();
    // What the sweeper leaves when it stops between writing session.json and removing the
    // files: a later session.json that no longer lists the turn, stats still counting it.
    const sessionPath = join(dataDir, "sessions", s.id, "session.json");
    const record = JSON.parse(await readFile(sessionPath, "utf8")) as { updatedAt: number; messages: unknown[] };
    await writeFile(sessionPath, JSON.stringify({ ...record, messages: [], updatedAt: record.updatedAt + 1000 }));

    const again = await openStore({ dataDir });
    expect(again.sessions.get(OWNER, s.id)?.messages.map((m) => m.continuationId)).toEqual([continuation.id]);
    expect(again.sessions.get(OWNER, s.id)?.stats).toMatchObject({ turns: 1, steps: 5 });
    await again.close();
  });
});
