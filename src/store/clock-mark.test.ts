import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createLogger, manualClock } from "../shared/index.js";
import { CLOCK_FILE, openStore } from "./index.js";
import { faultyFs } from "../../test/support/store/faulty-fs.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const DAY = 86_400_000;
const readMark = async (dataDir: string) => (JSON.parse(await readFile(join(dataDir, CLOCK_FILE), "utf8")) as { lastSeenAt: number }).lastSeenAt;
/** Runs the mark's schedule by hand: `tick()` is one renewal. */
const handSchedule = () => {
  let run: (() => void) | undefined;
  return { schedule: (_ms: number, r: () => void) => ((run = r), () => (run = undefined)), tick: () => run?.() };
};

describe("clock.json, the latest time the data directory saw", () => {
  it("is renewed while the store is open and at close, and read back as lastSeenAt", async () => {
    const dataDir = await tempDir();
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const store = await openStore({ dataDir, clock, monotonic: { elapsed: () => clock.now() } });
    expect(store.lastSeenAt).toBeUndefined();
    store.keepClockMark();
    clock.advance(90_000);
    await store.close();
    expect(await readMark(dataDir)).toBe(Date.UTC(2026, 5, 1) + 90_000);
    const again = await openStore({ dataDir, clock });
    expect(again.lastSeenAt).toBe(Date.UTC(2026, 5, 1) + 90_000);
    await again.close();
  });

  it("never moves back under a clock that is behind: it counts on from the last time seen by the time elapsed, and says so once at start", async () => {
    const dataDir = await tempDir();
    const T0 = Date.UTC(2026, 5, 1);
    const first = await openStore({ dataDir, clock: manualClock(T0) });
    await first.sessions.create({ owner: "u" });
    await first.close();

    const lines: string[] = [];
    const logger = createLogger({ level: "warn", destination: { write: (line: string) => void lines.push(line) } });
    const behind = manualClock(T0 - 180 * DAY);
    let mono = 0;
    const hand = handSchedule();
    const store = await openStore({ dataDir, clock: behind, monotonic: { elapsed: () => mono }, logger });
    expect(store.lastSeenAt).toBe(T0);
    expect(lines.join("")).toMatch(/the wall clock is 259200 min behind the last time this data directory saw/);
    store.keepClockMark({ schedule: hand.schedule });
    mono += 5 * 60_000;
    behind.advance(5 * 60_000);
    hand.tick();
    await store.close();
    expect(await readMark(dataDir)).toBe(T0 + 5 * 60_000);
  });

  it("counts a damaged clock.json as missing: the records still say what was seen", async () => {
    const dataDir = await tempDir();
    const T0 = Date.UTC(2026, 5, 1);
    const first = await openStore({ dataDir, clock: manualClock(T0) });
    await first.sessions.create({ owner: "u" });
    await first.close();
    await writeFile(join(dataDir, CLOCK_FILE), "{not json");
    const store = await openStore({ dataDir, clock: manualClock(T0 + 1_000) });
    expect(store.lastSeenAt).toBe(T0);
    await store.close();
  });

  it("says once that it cannot be renewed, not at every renewal, and says again when it is", async () => {
    const dataDir = await tempDir();
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(line) } });
    const disk = faultyFs();
    let writes = 0;
    const fs: typeof disk.fs = { ...disk.fs, open: (path, flags) => ((writes += flags === "r" ? 0 : 1), disk.fs.open(path, flags)) };
    const hand = handSchedule();
    const store = await openStore({ dataDir, fs, clock: manualClock(Date.UTC(2026, 5, 1)), logger });
    store.keepClockMark({ schedule: hand.schedule });
    disk.failWrites("ENOSPC");
    const before = writes;
    for (let i = 0; i < 3; i++) hand.tick();
    await vi.waitFor(() => expect(writes - before).toBe(3));
    const said = () => lines.filter((l) => l.includes("clock.json"));
    await vi.waitFor(() => expect(said()).toHaveLength(1));
    expect(said()[0]).toMatch(/"level":"warn".*could not be renewed\. Could not write clock\.json: the disk is full/);
    disk.failWrites(undefined);
    hand.tick();
    await vi.waitFor(() => expect(said()).toHaveLength(2));
    expect(said()[1]).toMatch(/"level":"info".*renewed again/);
    await store.close();
  });
});
