import { copyFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { manualClock } from "../shared/index.js";
import { openStore, type Store } from "./index.js";
import { addTurn, addTurns, emptyLedger, pruneLedger, SLOT_MS } from "./usage-ledger.js";
import type { ContinuationRecord } from "./continuation-schema.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One turn that made `calls` model calls and spent `tokens` input tokens, finished through the store as the agent finishes it. */
async function finishTurn(store: Store, owner: string, sessionId: string, tokens: number, calls = 2): Promise<string> {
  const { continuation } = await store.continuations.create(owner, sessionId, { message: `spend ${tokens}` });
  await store.continuations.update(owner, continuation.id, {
    status: "completed",
    response: { finalMessage: "done" },
    usage: { steps: calls, modelCalls: calls, toolCalls: 1, tokensIn: tokens, tokensOut: 10, tokensThinking: 0, model: "demo/demo" },
  });
  return continuation.id;
}

const total = (store: Store) => store.usage.slots().reduce((n, s) => n + s.tokensIn, 0);

describe("the usage ledger", () => {
  it("keeps 30 days of usage after the turns themselves are swept (24 hours by default)", async () => {
    const dataDir = await tempDir();
    const clock = manualClock();
    const store = await openStore({ dataDir, clock });
    const session = await store.sessions.create({ owner: "u" });
    for (let day = 0; day < 30; day++) {
      await finishTurn(store, "u", session.id, 100 + day);
      clock.advance(DAY);
      await store.sweep();
    }
    // Only the newest turn is still on disk; the ledger has every day.
    const days = new Set(store.usage.slots().map((s) => Math.floor(s.at / DAY)));
    expect(days.size).toBe(30);
    expect(total(store)).toBe(Array.from({ length: 30 }, (_, d) => 100 + d).reduce((a, b) => a + b, 0));
    await store.close();
    const again = await openStore({ dataDir, clock });
    expect(total(again)).toBe(total(store));
    await again.close();
  });

  it("counts a turn whose finish outran the ledger's write, at the next start, once", async () => {
    const dataDir = await tempDir();
    const clock = manualClock();
    const store = await openStore({ dataDir, clock, usageWrite: { delayMs: 0 } });
    const session = await store.sessions.create({ owner: "u" });
    await finishTurn(store, "u", session.id, 100);
    const before = join(dataDir, "before-crash.json");
    await copyFile(join(dataDir, "usage.json"), before);
    await finishTurn(store, "u", session.id, 50);
    await store.close();
    // The power went after the turn's files were written but before usage.json's rename reached the disk.
    await copyFile(before, join(dataDir, "usage.json"));
    for (let start = 0; start < 3; start++) {
      const again = await openStore({ dataDir, clock });
      expect(total(again)).toBe(150);
      expect(again.usage.slots().reduce((n, s) => n + s.turns, 0)).toBe(2);
      await again.close();
    }
  });

  it("rebuilds from the turns still on disk when usage.json is damaged, and quarantines it", async () => {
    const dataDir = await tempDir();
    const clock = manualClock();
    const store = await openStore({ dataDir, clock });
    const session = await store.sessions.create({ owner: "u" });
    await finishTurn(store, "u", session.id, 70);
    await store.close();
    await writeFile(join(dataDir, "usage.json"), '{"formatVersion":2,"slots":[{"at":');
    const again = await openStore({ dataDir, clock });
    expect(total(again)).toBe(70);
    expect(again.recovery.problems.join(" ")).toMatch(/usage\.json is damaged/);
    expect((await readdir(join(dataDir, "quarantine"))).some((n) => n.endsWith("__usage.json"))).toBe(true);
    await again.close();
  });

  it("files each turn under the quarter hour it began in, per owner and model, and a turn that made no call counts no turn", async () => {
    const dataDir = await tempDir();
    const clock = manualClock(Date.UTC(2026, 11, 7, 17, 20));
    const store = await openStore({ dataDir, clock, usageWrite: { delayMs: 0 } });
    const a = await store.sessions.create({ owner: "a" });
    const b = await store.sessions.create({ owner: "b" });
    await finishTurn(store, "a", a.id, 10);
    await finishTurn(store, "a", a.id, 20);
    await finishTurn(store, "b", b.id, 5, 0);
    expect(store.usage.slots("a")).toEqual([{ at: Date.UTC(2026, 11, 7, 17, 15), owner: "a", model: "demo/demo", turns: 2, modelCalls: 4, toolCalls: 2, tokensIn: 30, tokensOut: 20, tokensThinking: 0 }]);
    expect(store.usage.slots("b")[0]).toMatchObject({ turns: 0, modelCalls: 0 });
    const file = JSON.parse(await readFile(join(dataDir, "usage.json"), "utf8")) as { slots: { ids: string[] }[] };
    expect(file.slots.flatMap((s) => s.ids)).toHaveLength(3);
    await store.close();
  });

  it("stays bounded: slots older than 32 days go, and ids once the turns' files are long gone", () => {
    const now = Date.UTC(2026, 11, 31);
    const turn = (id: string, createdAt: number) => ({ id, owner: "u", createdAt, request: {}, usage: { steps: 1, modelCalls: 1, toolCalls: 0, tokensIn: 1, tokensOut: 0, tokensThinking: 0 } }) as unknown as ContinuationRecord;
    let ledger = emptyLedger();
    for (let d = 0; d < 40; d++) ledger = addTurn(ledger, turn(`T${d}`, now - d * DAY), now - d * DAY);
    ledger = addTurn(ledger, turn("T0", now), now);
    ledger = pruneLedger(ledger, now, 8 * DAY);
    expect(ledger.slots).toHaveLength(33);
    expect(ledger.slots.filter((s) => s.ids.length).length).toBe(9);
    expect(ledger.idsSince).toBe(Math.floor((now - 8 * DAY) / SLOT_MS) * SLOT_MS);
    // A turn older than the ids kept is not counted again by boot's check, and one in range only once.
    expect(addTurn(ledger, turn("T0", now), now)).toBe(ledger);
  });
});

describe("adding many turns at once", () => {
  const turn = (id: string, createdAt: number, owner = "u") =>
    ({ id, owner, createdAt, request: {}, usage: { steps: 1, modelCalls: 1, toolCalls: 0, tokensIn: 2, tokensOut: 1, tokensThinking: 0, model: "demo/demo" } }) as unknown as ContinuationRecord;

  it("gives what adding them one by one gives, counts none twice, and leaves the ledger it was given alone", () => {
    const now = Date.UTC(2026, 11, 7, 12);
    const turns = Array.from({ length: 200 }, (_, i) => turn(`t${i}`, now - (i % 7) * SLOT_MS, i % 3 ? "a" : "b"));
    const start = addTurns(emptyLedger(), turns.slice(0, 50), now);
    const frozen = JSON.stringify(start);
    const oneByOne = turns.reduce((ledger, t) => addTurn(ledger, t, now), start);
    const atOnce = addTurns(start, [...turns, ...turns.slice(0, 80)], now);
    expect(atOnce).toEqual(oneByOne);
    expect(atOnce.slots.reduce((n, s) => n + s.turns, 0)).toBe(200);
    expect(JSON.stringify(start)).toBe(frozen);
    expect(addTurns(atOnce, turns, now)).toBe(atOnce);
  });
});
