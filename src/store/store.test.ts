import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { manualClock } from "../shared/index.js";
import { countingFs, nodeStoreFs } from "./fs.js";
import { openStore, StaleWriteError, NotFoundError, SessionClosedError, ContinuationFinalError, InvalidIdError } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const ALICE = "user-alice";
const BOB = "user-bob";

describe("sessions", () => {
  it("fills the default budgets and policy and survives a restart", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const created = await store.sessions.create({ owner: ALICE, budgets: { maxSteps: 3 } });
    expect(created.budgets).toEqual({ maxSteps: 3, maxToolCalls: 16, maxDurationMs: 120_000, maxTokensPerTurn: 100_000 });
    expect(created.policy.allowActuation).toBe(false);
    await store.close();

    const again = await openStore({ dataDir });
    expect(again.sessions.get(ALICE, created.id)).toEqual(created);
    expect(again.recovery.sessions).toBe(1);
    await again.close();
  });

  it("reports another principal's session exactly like an unknown one", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const s = await store.sessions.create({ owner: ALICE });
    expect(store.sessions.get(BOB, s.id)).toBeUndefined();
    const err = await store.sessions.end(BOB, s.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    const unknown = await store.sessions.end(BOB, "01ARZ3NDEKTSV4RRFFQ69G5FAV").catch((e: unknown) => e);
    expect((unknown as Error).message.replace("01ARZ3NDEKTSV4RRFFQ69G5FAV", s.id)).toBe((err as Error).message);
    expect(store.sessions.list(BOB).sessions).toEqual([]);
    await store.close();
  });

  it("refuses a write based on an old version", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const s = await store.sessions.create({ owner: ALICE });
    const updated = await store.sessions.update(ALICE, s.id, s.version, { preferences: { language: "de" } });
    expect(updated.version).toBe(s.version + 1);
    await expect(store.sessions.update(ALICE, s.id, s.version, { preferences: { language: "fr" } })).rejects.toBeInstanceOf(StaleWriteError);
    expect(store.sessions.get(ALICE, s.id)?.preferences.language).toBe("de");
    await store.close();
  });

  it("lists only the caller's sessions, newest first, page by page", async () => {
    const clock = manualClock();
    const store = await openStore({ dataDir: await tempDir(), clock });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push((await store.sessions.create({ owner: ALICE })).id);
    }
    await store.sessions.create({ owner: BOB });
    await store.sessions.end(ALICE, ids[0] as string);
    const first = store.sessions.list(ALICE, { limit: 2 });
    expect(first.sessions.map((s) => s.id)).toEqual([ids[4], ids[3]]);
    const second = store.sessions.list(ALICE, { limit: 2, cursor: first.nextCursor });
    expect(second.sessions.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    const third = store.sessions.list(ALICE, { limit: 2, cursor: second.nextCursor });
    expect(third.sessions.map((s) => s.id)).toEqual([ids[0]]);
    expect(third.nextCursor).toBeUndefined();
    expect(store.sessions.list(ALICE, { status: "ended" }).sessions.map((s) => s.id)).toEqual([ids[0]]);
    await store.close();
  });

  it("rejects ids that are not ULIDs before they reach a path", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    expect(store.sessions.get(ALICE, "../../etc")).toBeUndefined();
    await expect(store.sessions.end(ALICE, "../x")).rejects.toBeInstanceOf(InvalidIdError);
    await expect(store.continuations.create(ALICE, "../../../tmp", { message: "hi" })).rejects.toBeInstanceOf(InvalidIdError);
    await store.close();
  });

  it("refuses new work in an ended session", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const s = await store.sessions.create({ owner: ALICE });
    await store.sessions.end(ALICE, s.id, "done");
    await expect(store.continuations.create(ALICE, s.id, { message: "hi" })).rejects.toBeInstanceOf(SessionClosedError);
    await expect(store.sessions.end(ALICE, s.id)).rejects.toMatchObject({ code: "session_ended" });
    await store.close();
  });
});

describe("continuations", () => {
  it("returns the first continuation for a repeated idempotency key, also after a restart", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: ALICE });
    const first = await store.continuations.create(ALICE, s.id, { message: "hi", idempotencyKey: "k1" });
    const repeat = await store.continuations.create(ALICE, s.id, { message: "hi", idempotencyKey: "k1" });
    expect(first.created).toBe(true);
    expect(repeat).toEqual({ continuation: first.continuation, created: false });
    await store.continuations.update(ALICE, first.continuation.id, { status: "completed", response: { finalMessage: "hello" } });
    await store.close();

    const again = await openStore({ dataDir });
    const afterRestart = await again.continuations.create(ALICE, s.id, { message: "hi", idempotencyKey: "k1" });
    expect(afterRestart.created).toBe(false);
    expect(afterRestart.continuation.id).toBe(first.continuation.id);
    expect(afterRestart.continuation.response?.finalMessage).toBe("hello");
    await again.close();
  });

  it("keeps a final status final", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const s = await store.sessions.create({ owner: ALICE });
    const { continuation } = await store.continuations.create(ALICE, s.id, { message: "hi" });
    await store.continuations.update(ALICE, continuation.id, { status: "cancelled" });
    await expect(store.continuations.update(ALICE, continuation.id, { status: "running" })).rejects.toBeInstanceOf(ContinuationFinalError);
    await expect(store.steps.append(ALICE, continuation.id, { type: "plan", detail: "x" })).rejects.toBeInstanceOf(ContinuationFinalError);
    expect((await store.continuations.get(ALICE, continuation.id))?.status).toBe("cancelled");
    expect(await store.continuations.get(BOB, continuation.id)).toBeUndefined();
    await store.close();
  });

  it("records usage in the session stats and memory with the final write", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const s = await store.sessions.create({ owner: ALICE });
    const { continuation } = await store.continuations.create(ALICE, s.id, { message: "why?" });
    await store.continuations.update(ALICE, continuation.id, { status: "running" });
    await store.continuations.update(ALICE, continuation.id, {
      status: "completed",
      response: { finalMessage: "because" },
      usage: { steps: 4, toolCalls: 2, tokensIn: 100, tokensOut: 20 },
      memory: { rollingSummary: "asked why", facts: [], pins: [], lastK: [] },
    });
    const after = store.sessions.get(ALICE, s.id);
    expect(after?.stats).toMatchObject({ turns: 1, steps: 4, toolCalls: 2, tokensIn: 100, tokensOut: 20 });
    expect((await store.sessions.memory(ALICE, s.id)).rollingSummary).toBe("asked why");
    expect(after?.memorySizes.rollingSummaryChars).toBe("asked why".length);
    expect(after?.openContinuations).toEqual([]);
    expect(after?.messages.map((m) => m.status)).toEqual(["completed"]);
    await store.close();
  });
});

describe("disk cost of a turn", () => {
  // The benchmark's typical turn: 10 steps, the 3rd, 5th and 8th durable intents.
  it("costs 10 fsyncs for a typical 10-step turn and writes session.json once; usage.json follows within the minute", async () => {
    const dataDir = await tempDir();
    const counting = countingFs(nodeStoreFs);
    let writeUsage: (() => void) | undefined;
    const usageWrite = { delayMs: 60_000, schedule: (_ms: number, run: () => void) => ((writeUsage = run), () => (writeUsage = undefined)) };
    const store = await openStore({ dataDir, fs: counting.fs, flush: { intervalMs: 60_000, everySteps: 5 }, usageWrite });
    const s = await store.sessions.create({ owner: ALICE });
    counting.reset();
    const { continuation } = await store.continuations.create(ALICE, s.id, { message: "turn" });
    // The turn file and its folder; session.json is not written.
    expect(counting.counts.fsyncs).toBe(2);
    expect(counting.counts.writesByName.get("session.json")).toBeUndefined();
    await store.continuations.update(ALICE, continuation.id, { status: "running" });
    expect(counting.counts.fsyncs).toBe(2);
    for (let i = 1; i <= 10; i++) await store.steps.append(ALICE, continuation.id, { type: "plan", detail: { i } }, { durable: [3, 5, 8].includes(i) });
    // 3 durable flushes plus the new log's folder entry; steps 9 and 10 wait for the end of the turn.
    expect(counting.counts.fsyncs).toBe(6);
    await store.continuations.update(ALICE, continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    // End-of-turn flush with the final line (1), turn file and its folder (2), session.json without its folder (1).
    expect(counting.counts.fsyncs).toBe(10);
    expect(counting.counts.writesByName.get("usage.json")).toBeUndefined();
    expect(store.usage.slots()).toHaveLength(1);
    const logName = `${continuation.id}.log`;
    expect(counting.counts.fsyncsByName.get(logName)).toBe(4);
    expect(counting.counts.fsyncsByName.get("logs")).toBe(1);
    expect(counting.counts.fsyncsByName.get("turns")).toBe(2);
    expect(counting.counts.fsyncsByName.get(s.id)).toBeUndefined();
    expect(counting.counts.writesByName.get("session.json")).toBe(1);
    expect(counting.counts.writesByName.get(`${continuation.id}.json`)).toBe(2);
    const lines = (await readFile(join(dataDir, "sessions", s.id, "logs", logName), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(11);
    expect(JSON.parse(lines[10] as string)).toMatchObject({ seq: 11, type: "final", detail: { status: "completed", response: { finalMessage: "ok" } } });
    // The final line is the store's own: readers of the steps do not see it.
    expect((await store.steps.read(ALICE, continuation.id)).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // A minute on, the turns counted since are written at once: one usage.json write (and fsync) for them all.
    const second = await store.continuations.create(ALICE, s.id, { message: "another" });
    await store.continuations.update(ALICE, second.continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    expect(counting.counts.writesByName.get("usage.json")).toBeUndefined();
    writeUsage!();
    await vi.waitFor(() => expect(counting.counts.writesByName.get("usage.json")).toBe(1));
    const written = JSON.parse(await readFile(join(dataDir, "usage.json"), "utf8")) as { slots: { ids: string[] }[] };
    expect(written.slots.flatMap((slot) => slot.ids)).toHaveLength(2);
    await store.close();
    expect(counting.counts.writesByName.get("usage.json")).toBe(1);
  });

  it("writes the turns usage.json has not yet written when the store closes", async () => {
    const dataDir = await tempDir();
    const counting = countingFs(nodeStoreFs);
    const store = await openStore({ dataDir, fs: counting.fs, usageWrite: { delayMs: 60_000, schedule: () => () => undefined } });
    const s = await store.sessions.create({ owner: ALICE });
    counting.reset();
    const { continuation } = await store.continuations.create(ALICE, s.id, { message: "turn" });
    await store.continuations.update(ALICE, continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    expect(counting.counts.writesByName.get("usage.json")).toBeUndefined();
    await store.close();
    expect(counting.counts.writesByName.get("usage.json")).toBe(1);
    const written = JSON.parse(await readFile(join(dataDir, "usage.json"), "utf8")) as { slots: { ids: string[] }[] };
    expect(written.slots.flatMap((slot) => slot.ids)).toEqual([continuation.id]);
  });

  it("fsyncs a durable append before it resolves", async () => {
    const counting = countingFs(nodeStoreFs);
    const dataDir = await tempDir();
    const store = await openStore({ dataDir, fs: counting.fs, flush: { intervalMs: 60_000, everySteps: 5 } });
    const s = await store.sessions.create({ owner: ALICE });
    const { continuation } = await store.continuations.create(ALICE, s.id, { message: "turn" });
    await store.steps.append(ALICE, continuation.id, { type: "plan", detail: "buffered" });
    const before = counting.counts.fsyncs;
    const line = await store.steps.append(ALICE, continuation.id, { type: "tool_call", key: "c:1:0", detail: { service: "light.turn_on" } }, { durable: true });
    expect(counting.counts.fsyncs).toBeGreaterThan(before);
    expect(line.seq).toBe(2);
    const onDisk = await readFile(join(dataDir, "sessions", s.id, "logs", `${continuation.id}.log`), "utf8");
    expect(onDisk.trim().split("\n")).toHaveLength(2);
    await store.close();
  });
});

describe("interrupting on purpose", () => {
  it("frees the session for new work and can be resumed later", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const s = await store.sessions.create({ owner: ALICE });
    const { continuation } = await store.continuations.create(ALICE, s.id, { message: "long job" });
    await store.steps.append(ALICE, continuation.id, { type: "plan", detail: "step" });
    await store.continuations.update(ALICE, continuation.id, { status: "interrupted" });
    expect(store.sessions.get(ALICE, s.id)?.openContinuations).toEqual([]);
    expect((await store.steps.read(ALICE, continuation.id)).map((l) => l.seq)).toEqual([1]);
    await store.continuations.update(ALICE, continuation.id, { status: "running" });
    expect(store.sessions.get(ALICE, s.id)?.openContinuations).toEqual([continuation.id]);
    expect((await store.steps.append(ALICE, continuation.id, { type: "plan", detail: "again" })).seq).toBe(2);
    await store.close();
  });
});
