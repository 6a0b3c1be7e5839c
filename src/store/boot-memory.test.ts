import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { MEMORY_CACHE_SESSIONS, MEMORY_LIMITS, openStore, type SessionMemory } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

// Ended and expired sessions stay on disk for days, so their number has no
// bound; the heap (capped at 512 MB) must not grow with their memories.

const tempDir = useTempDirs();
const SESSIONS = 200;
const MB = 1024 * 1024;

/** A memory at every limit of MEMORY_LIMITS: about 371,000 characters. */
function fullMemory(tag: string): SessionMemory {
  const text = (n: number) => `${tag} `.padEnd(n, "x");
  return {
    rollingSummary: text(MEMORY_LIMITS.summaryChars),
    facts: Array.from({ length: MEMORY_LIMITS.facts }, () => ({ text: text(MEMORY_LIMITS.factChars), createdAt: 1 })),
    pins: Array.from({ length: MEMORY_LIMITS.pins }, (_, i) => ({ id: `p${i}`, text: text(MEMORY_LIMITS.pinChars) })),
    lastK: Array.from({ length: MEMORY_LIMITS.lastK }, (_, i) => ({ role: i % 2 ? ("assistant" as const) : ("user" as const), content: text(MEMORY_LIMITS.messageChars), ts: i })),
  };
}

/** Writes SESSIONS sessions with full memories through the store; returns their ids. Nothing of it stays referenced. */
async function writeFullSessions(dataDir: string): Promise<Array<{ owner: string; id: string }>> {
  const store = await openStore({ dataDir });
  const out: Array<{ owner: string; id: string }> = [];
  for (let i = 0; i < SESSIONS; i++) {
    const owner = `user-${i % 10}`;
    const s = await store.sessions.create({ owner });
    await store.sessions.update(owner, s.id, s.version, { memory: fullMemory(`s${i}`) });
    out.push({ owner, id: s.id });
  }
  await store.close();
  return out;
}

const heapUsed = async () => {
  // A WeakRef holds its target until the current job ends.
  await new Promise((r) => setImmediate(r));
  gc();
  return process.memoryUsage().heapUsed;
};

describe("store memory", () => {
  it("boots holding no memory bodies, however many full sessions the disk holds", async () => {
    const dataDir = await tempDir();
    const ids = await writeFullSessions(dataDir);
    const before = await heapUsed();
    const store = await openStore({ dataDir });
    const held = (await heapUsed()) - before;
    expect(store.recovery.sessions).toBe(SESSIONS);
    // The memories alone are ~74 MB as they are parsed; heads are ~1 KB each.
    expect(held, `boot kept ${(held / MB).toFixed(1)} MB`).toBeLessThan(4 * MB);
    const last = ids.at(-1)!;
    expect(store.sessions.get(last.owner, last.id)?.memorySizes).toEqual({ rollingSummaryChars: 16_000, facts: 50, pins: 20, lastK: 20 });
    expect((await store.sessions.memory(last.owner, last.id)).rollingSummary.startsWith(`s${SESSIONS - 1} x`)).toBe(true);
    await store.close();
  }, 120_000);

  it("lets go of a memory once as many other sessions' memories were read after it", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const ids: string[] = [];
    for (let i = 0; i <= MEMORY_CACHE_SESSIONS; i++) {
      const s = await store.sessions.create({ owner: "user-1" });
      await store.sessions.update("user-1", s.id, s.version, { memory: { rollingSummary: `session ${i}`, facts: [], pins: [], lastK: [] } });
      ids.push(s.id);
    }
    const first = new WeakRef(await store.sessions.memory("user-1", ids[0]!));
    const second = new WeakRef(await store.sessions.memory("user-1", ids[1]!));
    for (const id of ids.slice(2)) await store.sessions.memory("user-1", id);
    await heapUsed();
    // 32 memories were used after the first: it is gone. The second is the oldest still cached.
    expect(first.deref(), "the least recently used memory is still held").toBeUndefined();
    expect(second.deref()?.rollingSummary).toBe("session 1");
    expect((await store.sessions.memory("user-1", ids[0]!)).rollingSummary).toBe("session 0");
    await store.close();
  });
});
