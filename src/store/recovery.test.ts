import { appendFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeStoreFs, openStore, type StoreFileHandle, type StoreFs } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const OWNER = "user-1";

async function runningTurn(dataDir: string, steps: number) {
  const opened: StoreFileHandle[] = [];
  const fs: StoreFs = { ...nodeStoreFs, open: async (path, flags) => opened[opened.push(await nodeStoreFs.open(path, flags)) - 1]! };
  const store = await openStore({ dataDir, fs, flush: { intervalMs: 60_000, everySteps: 100 } });
  const s = await store.sessions.create({ owner: OWNER });
  const { continuation } = await store.continuations.create(OWNER, s.id, { message: "go" });
  await store.continuations.update(OWNER, continuation.id, { status: "streaming" });
  for (let i = 0; i < steps; i++) await store.steps.append(OWNER, continuation.id, { type: "tool_call", detail: { i } }, { durable: true });
  // No close(): the process "dies" here with the log handle still open. Its
  // files are closed as the kernel closes a dead process's, with nothing
  // flushed, rather than left to the garbage collector (DEP0137).
  await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
  return { sessionId: s.id, contId: continuation.id, logPath: join(dataDir, "sessions", s.id, "logs", `${continuation.id}.log`) };
}

describe("boot recovery", () => {
  // running/streaming live in memory only, so the disk (and the report) says pending.
  it("marks unfinished work interrupted with the last durable step, and cuts a torn last line", async () => {
    const dataDir = await tempDir();
    const { sessionId, contId, logPath } = await runningTurn(dataDir, 3);
    await appendFile(logPath, '{"seq":4,"ts":1,"type":"pl');
    const store = await openStore({ dataDir });
    expect(store.recovery.interrupted).toEqual([{ sessionId, continuationId: contId, previousStatus: "pending", lastDurableSeq: 3 }]);
    expect(store.recovery.tornLogLines).toBe(1);
    const record = await store.continuations.get(OWNER, contId);
    expect(record).toMatchObject({ status: "interrupted", interrupted: { previousStatus: "pending", lastDurableSeq: 3 } });
    expect(store.sessions.get(OWNER, sessionId)?.openContinuations).toEqual([]);
    expect((await readFile(logPath, "utf8")).endsWith("}\n")).toBe(true);
    expect((await store.steps.read(OWNER, contId)).map((l) => l.seq)).toEqual([1, 2, 3]);
    await store.close();
  });

  it("lets an interrupted continuation resume and continue its log where it stopped", async () => {
    const dataDir = await tempDir();
    const { sessionId, contId } = await runningTurn(dataDir, 2);
    const store = await openStore({ dataDir });
    await store.continuations.update(OWNER, contId, { status: "running" });
    expect(store.sessions.get(OWNER, sessionId)?.openContinuations).toEqual([contId]);
    const line = await store.steps.append(OWNER, contId, { type: "plan", detail: "resumed" });
    expect(line.seq).toBe(3);
    await store.continuations.update(OWNER, contId, { status: "completed", response: { finalMessage: "done" } });
    await store.close();
    const again = await openStore({ dataDir });
    expect(again.recovery.interrupted).toEqual([]);
    expect((await again.steps.read(OWNER, contId)).map((l) => l.seq)).toEqual([1, 2, 3]);
    await again.close();
  });

  it("quarantines a record that does not parse, with a note of why, and keeps going", async () => {
    const dataDir = await tempDir();
    const { sessionId, contId } = await runningTurn(dataDir, 1);
    const turnPath = join(dataDir, "sessions", sessionId, "turns", `${contId}.json`);
    await writeFile(turnPath, '{"formatVersion":1,"id":');
    const store = await openStore({ dataDir });
    expect(store.recovery.quarantined).toHaveLength(1);
    expect(store.recovery.quarantined[0]).toMatchObject({ path: `sessions/${sessionId}/turns/${contId}.json`, reason: expect.stringContaining("not valid JSON") });
    const files = await readdir(join(dataDir, "quarantine"));
    expect(files.some((f) => f.endsWith(`${contId}.json`))).toBe(true);
    const note = files.find((f) => f.endsWith(".why.txt"));
    expect(await readFile(join(dataDir, "quarantine", note as string), "utf8")).toMatch(/reason: not valid JSON/);
    expect(store.sessions.get(OWNER, sessionId)?.messages).toEqual([]);
    expect(store.recovery.problems.join("\n")).toMatch(/damaged/);
    await store.close();
  });

  it("quarantines a damaged session.json and serves the other sessions", async () => {
    const dataDir = await tempDir();
    const first = await openStore({ dataDir });
    const good = await first.sessions.create({ owner: OWNER });
    const bad = await first.sessions.create({ owner: OWNER });
    await first.close();
    await writeFile(join(dataDir, "sessions", bad.id, "session.json"), "");
    const store = await openStore({ dataDir });
    expect(store.recovery.quarantined.map((q) => q.reason)).toEqual(["the file is empty"]);
    expect(store.sessions.get(OWNER, good.id)).toBeDefined();
    expect(store.sessions.get(OWNER, bad.id)).toBeUndefined();
    await store.close();
  });

  it("removes leftover temp files", async () => {
    const dataDir = await tempDir();
    await mkdir(join(dataDir, "tmp"), { recursive: true });
    await writeFile(join(dataDir, "tmp", "session.json.abc123.tmp"), "{partial");
    const store = await openStore({ dataDir });
    expect(store.recovery.tempFilesRemoved).toBe(1);
    expect(await readdir(join(dataDir, "tmp"))).toEqual([]);
    await store.close();
  });

  it("refuses to start on data written by a newer format instead of quarantining it", async () => {
    const dataDir = await tempDir();
    const first = await openStore({ dataDir });
    const s = await first.sessions.create({ owner: OWNER });
    await first.close();
    const path = join(dataDir, "sessions", s.id, "session.json");
    const record = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...record, formatVersion: 99 }));
    await expect(openStore({ dataDir })).rejects.toMatchObject({ code: "format_too_new" });
  });
});

describe("boot recovery on odd data dirs", () => {
  it("ignores a stray file named like a session and reports it", async () => {
    const dataDir = await tempDir();
    await mkdir(join(dataDir, "sessions"), { recursive: true });
    await writeFile(join(dataDir, "sessions", "01JD0000000000000000000009"), "stray");
    const store = await openStore({ dataDir });
    // Written by hand with the default modes: besides the stray file, recovery reports that it made them owner-only.
    expect(store.recovery.problems).toEqual([expect.stringContaining("owner-only now"), expect.stringContaining("is a file, not a session folder")]);
    expect(await readFile(join(dataDir, "sessions", "01JD0000000000000000000009"), "utf8")).toBe("stray");
    await store.close();
  });
});
