import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, StorageError } from "./index.js";
import { faultyFs } from "../../test/support/store/faulty-fs.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const OWNER = "user-1";

/** A store on a disk that can be made to refuse writes, with one open turn holding one durable step ("one"). */
async function openWithDurableStep() {
  const dataDir = await tempDir();
  const faulty = faultyFs();
  const store = await openStore({ dataDir, fs: faulty.fs });
  const s = await store.sessions.create({ owner: OWNER });
  const { continuation } = await store.continuations.create(OWNER, s.id, { message: "go" });
  await store.steps.append(OWNER, continuation.id, { type: "plan", detail: "one" }, { durable: true });
  return { dataDir, faulty, store, s, continuation };
}

describe.each(["ENOSPC", "EACCES"])("when the disk refuses writes with %s", (code) => {
  it("fails session writes with a clear StorageError and keeps the previous file", async () => {
    const dataDir = await tempDir();
    const faulty = faultyFs();
    const store = await openStore({ dataDir, fs: faulty.fs });
    const s = await store.sessions.create({ owner: OWNER });
    const path = join(dataDir, "sessions", s.id, "session.json");
    const before = await readFile(path, "utf8");

    faulty.failWrites(code);
    const err = await store.sessions.update(OWNER, s.id, s.version, { preferences: { language: "de" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).message).toMatch(code === "ENOSPC" ? /free space on the disk that holds HA Agent's data directory/ : /check that HA Agent may write to its data directory/);
    await expect(store.sessions.create({ owner: OWNER })).rejects.toBeInstanceOf(StorageError);
    expect(await readFile(path, "utf8")).toBe(before);
    expect(store.sessions.get(OWNER, s.id)?.version).toBe(s.version);

    faulty.failWrites(undefined);
    const after = await store.sessions.update(OWNER, s.id, s.version, { preferences: { language: "de" } });
    expect(after.version).toBe(s.version + 1);
    await store.close();
    const reopened = await openStore({ dataDir });
    expect(reopened.recovery.quarantined).toEqual([]);
    expect(reopened.sessions.get(OWNER, s.id)?.preferences.language).toBe("de");
    await reopened.close();
  });

  it("fails a durable append without leaving a partial line in the log", async () => {
    const { dataDir, faulty, store, s, continuation } = await openWithDurableStep();

    faulty.failWrites(code);
    await expect(store.steps.append(OWNER, continuation.id, { type: "tool_call", detail: "two" }, { durable: true })).rejects.toBeInstanceOf(StorageError);
    await expect(store.continuations.create(OWNER, s.id, { message: "again" })).rejects.toThrow();
    const logPath = join(dataDir, "sessions", s.id, "logs", `${continuation.id}.log`);
    const log = await readFile(logPath, "utf8");
    expect(log.split("\n").filter(Boolean)).toHaveLength(1);
    expect(log.endsWith("\n")).toBe(true);

    faulty.failWrites(undefined);
    await store.steps.flush(continuation.id);
    expect((await store.steps.read(OWNER, continuation.id)).map((l) => l.detail)).toEqual(["one", "two"]);
    await store.close();
    const reopened = await openStore({ dataDir });
    expect(reopened.recovery.tornLogLines).toBe(0);
    expect(reopened.recovery.quarantined).toEqual([]);
    await reopened.close();
  });

  it("cuts a partial write it could not cut at once before the next flush appends", async () => {
    const { dataDir, faulty, store, continuation } = await openWithDurableStep();
    faulty.failWrites(code);
    faulty.failCuts(true);
    await expect(store.steps.append(OWNER, continuation.id, { type: "tool_call", detail: "two" }, { durable: true })).rejects.toBeInstanceOf(StorageError);

    faulty.failWrites(undefined);
    faulty.failCuts(false);
    await store.steps.append(OWNER, continuation.id, { type: "plan", detail: "three" }, { durable: true });
    expect((await store.steps.read(OWNER, continuation.id)).map((l) => l.detail)).toEqual(["one", "two", "three"]);
    await store.close();
    const reopened = await openStore({ dataDir });
    expect(reopened.recovery.problems.filter((p) => /damaged|torn/.test(p))).toEqual([]);
    expect((await reopened.steps.read(OWNER, continuation.id)).map((l) => l.detail)).toEqual(["one", "two", "three"]);
    await reopened.close();
  });

  it("fails a finish without leaving a final line behind, and a retry finishes once", async () => {
    const { dataDir, faulty, store, s, continuation } = await openWithDurableStep();

    faulty.failWrites(code);
    await expect(store.continuations.update(OWNER, continuation.id, { status: "completed", response: { finalMessage: "ok" } })).rejects.toBeInstanceOf(StorageError);
    faulty.failWrites(undefined);
    await store.steps.flush(continuation.id);
    const logPath = join(dataDir, "sessions", s.id, "logs", `${continuation.id}.log`);
    const types = async () => (await readFile(logPath, "utf8")).trim().split("\n").map((l) => (JSON.parse(l) as { type: string }).type);
    expect(await types()).toEqual(["plan"]);
    expect((await store.continuations.get(OWNER, continuation.id))?.status).toBe("pending");

    const done = await store.continuations.update(OWNER, continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    expect(done.status).toBe("completed");
    expect(await types()).toEqual(["plan", "final"]);
    await store.close();
    const reopened = await openStore({ dataDir });
    expect(reopened.recovery.problems).toEqual([]);
    expect(await reopened.continuations.get(OWNER, continuation.id)).toMatchObject({ status: "completed", response: { finalMessage: "ok" } });
    await reopened.close();
  });
});
