import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeStoreFs, type StoreFs } from "./fs.js";
import { MEMORY_CACHE_SESSIONS, openStore, StorageError, type SessionMemory, type Store } from "./index.js";
import { faultyFs } from "../../test/support/store/faulty-fs.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

// The store holds session heads and only the memory of the sessions used last.
// These tests push a session's memory out of that cache and then write the
// session every way the store does: each write must carry its memory, read
// back from session.json, never an empty or older one.

const tempDir = useTempDirs();
const OWNER = "user-1";

const memoryOf = (tag: string): SessionMemory => ({
  rollingSummary: `summary of ${tag}`,
  facts: [{ text: `fact of ${tag}`, createdAt: 1 }],
  pins: [{ id: "p1", text: `pin of ${tag}` }],
  lastK: [
    { role: "user", content: `question of ${tag}`, ts: 2 },
    { role: "assistant", content: `answer of ${tag}`, ts: 3 },
  ],
});

/** The real fs, noting every session.json it reads. */
function readNotingFs(): { fs: StoreFs; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    fs: {
      ...nodeStoreFs,
      readFile: (path) => {
        if (path.endsWith("session.json")) reads.push(path);
        return nodeStoreFs.readFile(path);
      },
    },
  };
}

let round = 0;
/** Uses as many other sessions as the cache holds (each create caches its memory), so every older memory leaves it. */
async function useOthers(store: Store): Promise<void> {
  round += 1;
  for (let i = 0; i < MEMORY_CACHE_SESSIONS; i++) await store.sessions.create({ owner: `other-${round}` });
}

/** A session of OWNER with memory, whose memory then left the cache. */
async function evictedSession(store: Store) {
  const created = await store.sessions.create({ owner: OWNER });
  const s = await store.sessions.update(OWNER, created.id, created.version, { memory: memoryOf("mine") });
  await useOthers(store);
  return s;
}

const diskMemory = async (dataDir: string, sessionId: string) =>
  (JSON.parse(await readFile(join(dataDir, "sessions", sessionId, "session.json"), "utf8")) as { memory: SessionMemory }).memory;

describe("session memory loaded on demand", () => {
  it("keeps memory across a reopen and reports its sizes in the head", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const created = await store.sessions.create({ owner: OWNER, pins: ["never touch the heating"] });
    expect(created.memorySizes).toEqual({ rollingSummaryChars: 0, facts: 0, pins: 1, lastK: 0 });
    const updated = await store.sessions.update(OWNER, created.id, created.version, { memory: memoryOf("mine") });
    expect(updated).not.toHaveProperty("memory");
    expect(updated.memorySizes).toEqual({ rollingSummaryChars: "summary of mine".length, facts: 1, pins: 1, lastK: 2 });
    await store.close();

    const again = await openStore({ dataDir });
    expect(await again.sessions.memory(OWNER, created.id)).toEqual(memoryOf("mine"));
    expect(again.sessions.get(OWNER, created.id)).toEqual(updated);
    await expect(again.sessions.memory("user-bob", created.id)).rejects.toMatchObject({ code: "not_found" });
    await again.close();
  });

  it("keeps the memory of an evicted session through update, end and a reopen", async () => {
    const dataDir = await tempDir();
    const noted = readNotingFs();
    const store = await openStore({ dataDir, fs: noted.fs });
    const s = await evictedSession(store);
    const path = join(dataDir, "sessions", s.id, "session.json");

    noted.reads.length = 0;
    const updated = await store.sessions.update(OWNER, s.id, s.version, { preferences: { language: "de" } });
    // The memory came from the disk: it had really left the cache.
    expect(noted.reads).toEqual([path]);
    expect(await diskMemory(dataDir, s.id)).toEqual(memoryOf("mine"));
    await useOthers(store);
    await store.sessions.end(OWNER, s.id, "done");
    expect(await diskMemory(dataDir, s.id)).toEqual(memoryOf("mine"));
    expect(updated.memorySizes.lastK).toBe(2);
    await store.close();

    const again = await openStore({ dataDir });
    expect(again.sessions.get(OWNER, s.id)).toMatchObject({ status: "ended", preferences: { language: "de" }, memorySizes: { facts: 1, lastK: 2 } });
    expect(await again.sessions.memory(OWNER, s.id)).toEqual(memoryOf("mine"));
    await again.close();
  });

  it("keeps an evicted session's memory when a turn finishes without new memory, and saves the new one when it brings it", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await evictedSession(store);
    const first = await store.continuations.create(OWNER, s.id, { message: "one" });
    await store.continuations.update(OWNER, first.continuation.id, { status: "failed", error: { code: "x", message: "no" }, usage: { steps: 1 } });
    expect(await diskMemory(dataDir, s.id)).toEqual(memoryOf("mine"));

    await useOthers(store);
    const second = await store.continuations.create(OWNER, s.id, { message: "two" });
    await store.continuations.update(OWNER, second.continuation.id, { status: "completed", response: { finalMessage: "2" }, memory: memoryOf("two") });
    expect(await store.sessions.memory(OWNER, s.id)).toEqual(memoryOf("two"));
    await store.close();

    const again = await openStore({ dataDir });
    expect(await again.sessions.memory(OWNER, s.id)).toEqual(memoryOf("two"));
    expect(again.sessions.get(OWNER, s.id)?.stats).toMatchObject({ turns: 2 });
    await again.close();
  });

  it("keeps an evicted session's memory when the sweeper expires it", async () => {
    const dataDir = await tempDir();
    let now = 1_767_225_600_000;
    const store = await openStore({ dataDir, clock: { now: () => now }, sessionIdleMs: 1000 });
    const s = await evictedSession(store);
    now += 2000;
    expect((await store.sweep()).expiredSessions).toBe(MEMORY_CACHE_SESSIONS + 1);
    expect(store.sessions.get(OWNER, s.id)?.status).toBe("expired");
    expect(await diskMemory(dataDir, s.id)).toEqual(memoryOf("mine"));
    await store.close();
  });

  it("refuses to write a session whose session.json can no longer be read, rather than save an empty memory", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await evictedSession(store);
    const path = join(dataDir, "sessions", s.id, "session.json");
    await writeFile(path, "{ damaged");

    const err = await store.sessions.update(OWNER, s.id, s.version, { preferences: { language: "de" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).message).toMatch(/memory of session .*not valid JSON.*run fsck/);
    expect(await readFile(path, "utf8")).toBe("{ damaged");
    expect(store.sessions.get(OWNER, s.id)?.version).toBe(s.version);
    await expect(store.sessions.memory(OWNER, s.id)).rejects.toBeInstanceOf(StorageError);
    await store.close();
  });

  it("serves the memory a read-only boot restored from a turn's log, although it could not write it", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: OWNER });
    const sessionPath = join(dataDir, "sessions", s.id, "session.json");
    const oldSession = await readFile(sessionPath);
    const { continuation } = await store.continuations.create(OWNER, s.id, { message: "why?" });
    await store.continuations.update(OWNER, continuation.id, { status: "completed", response: { finalMessage: "because" }, memory: memoryOf("after") });
    await store.close();
    // The finish's session.json rename was lost to a power cut, and the disk came back read-only.
    await writeFile(sessionPath, oldSession);
    const faulty = faultyFs();
    faulty.failWrites("EROFS");

    const again = await openStore({ dataDir, fs: faulty.fs });
    expect(again.unwritable).toBeDefined();
    expect(await readFile(sessionPath)).toEqual(oldSession);
    expect(again.sessions.get(OWNER, s.id)?.memorySizes.lastK).toBe(2);
    expect(await again.sessions.memory(OWNER, s.id)).toEqual(memoryOf("after"));
    await again.close();
  });
});
