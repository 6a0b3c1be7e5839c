import { access, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createLogger, manualClock } from "../shared/index.js";
import { nodeStoreFs, openStore, type StoreFs } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const exists = (p: string) => access(p).then(() => true, () => false);

describe("sweeper", () => {
  it("removes finished continuations after retention, expires idle sessions and never touches running work", async () => {
    const dataDir = await tempDir();
    const clock = manualClock();
    const store = await openStore({ dataDir, clock, sessionIdleMs: 7 * DAY, continuationRetentionMs: DAY });
    const idle = await store.sessions.create({ owner: "u" });
    const busy = await store.sessions.create({ owner: "u" });
    const done = await store.continuations.create("u", idle.id, { message: "a", idempotencyKey: "k" });
    const ref = await store.artifacts.put("u", done.continuation.id, { content: "big output", mediaType: "text/plain" });
    await store.steps.append("u", done.continuation.id, { type: "tool_result", detail: "see artifact", artifact: ref });
    const stray = await store.artifacts.put("u", done.continuation.id, { content: "never referenced", mediaType: "text/plain" });
    await store.continuations.update("u", done.continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    const running = await store.continuations.create("u", busy.id, { message: "b" });
    await store.continuations.update("u", running.continuation.id, { status: "running" });

    clock.advance(HOUR);
    let report = await store.sweep();
    expect(report).toMatchObject({ removedContinuations: 0, expiredSessions: 0, removedArtifacts: 1 });
    expect(await exists(join(dataDir, "artifacts", ref.id))).toBe(true);
    expect(await exists(join(dataDir, "artifacts", stray.id))).toBe(false);

    clock.advance(DAY);
    report = await store.sweep();
    expect(report).toMatchObject({ removedContinuations: 1, expiredSessions: 0, removedArtifacts: 1 });
    expect(await readdir(join(dataDir, "sessions", idle.id, "turns"))).toEqual([]);
    expect(store.sessions.get("u", idle.id)?.idempotencyKeys).toEqual([]);

    clock.advance(7 * DAY);
    report = await store.sweep();
    expect(report.expiredSessions).toBe(1);
    expect(store.sessions.get("u", idle.id)?.status).toBe("expired");
    expect(store.sessions.get("u", busy.id)?.status).toBe("active");
    expect((await store.continuations.get("u", running.continuation.id))?.status).toBe("running");

    clock.advance(8 * DAY);
    report = await store.sweep();
    expect(report.removedSessions).toBe(1);
    expect(store.sessions.get("u", idle.id)).toBeUndefined();
    expect(await exists(join(dataDir, "sessions", idle.id))).toBe(false);
    expect(store.sessions.get("u", busy.id)?.status).toBe("active");
    await store.close();
  });

  it("counts only what it removed when the disk refuses a delete, and says so in the log", async () => {
    const dataDir = await tempDir();
    const lines: string[] = [];
    const logger = createLogger({ level: "warn", destination: { write: (line: string) => void lines.push(line) } });
    let refuse = false;
    const fs: StoreFs = {
      ...nodeStoreFs,
      unlink: async (path) => {
        if (refuse) throw Object.assign(new Error("EACCES: injected failure"), { code: "EACCES" });
        await nodeStoreFs.unlink(path);
      },
    };
    const store = await openStore({ dataDir, fs, logger, clock: manualClock() });
    const s = await store.sessions.create({ owner: "u" });
    const { continuation } = await store.continuations.create("u", s.id, { message: "a" });
    const stray = await store.artifacts.put("u", continuation.id, { content: "never referenced", mediaType: "text/plain" });
    await store.continuations.update("u", continuation.id, { status: "completed", response: { finalMessage: "ok" } });

    refuse = true;
    expect((await store.sweep()).removedArtifacts).toBe(0);
    expect(lines.join("")).toMatch(/could not remove a file/);
    expect(await exists(join(dataDir, "artifacts", stray.id))).toBe(true);
    refuse = false;
    expect((await store.sweep()).removedArtifacts).toBe(1);
    expect(await exists(join(dataDir, "artifacts", stray.id))).toBe(false);
    await store.close();
  });

  it("runs its first pass a minute after it starts, not only after the first 15-minute interval, then every interval", async () => {
    const dataDir = await tempDir();
    const clock = manualClock();
    const store = await openStore({ dataDir, clock, continuationRetentionMs: DAY });
    const s = await store.sessions.create({ owner: "u" });
    const { continuation } = await store.continuations.create("u", s.id, { message: "a" });
    await store.continuations.update("u", continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    // A program that restarted a day later: the finished turn is past retention.
    clock.advance(DAY + HOUR);

    const timers: { ms: number; run: () => void; cancelled: boolean }[] = [];
    const stop = store.startSweeper({
      schedule: (ms, run) => {
        const timer = { ms, run, cancelled: false };
        timers.push(timer);
        return () => void (timer.cancelled = true);
      },
    });
    expect(timers.map((t) => t.ms)).toEqual([60_000]);
    timers[0]!.run();
    await vi.waitFor(() => expect(timers).toHaveLength(2));
    expect(await exists(join(dataDir, "sessions", s.id, "turns", `${continuation.id}.json`))).toBe(false);
    expect(store.sessions.get("u", s.id)?.messages).toEqual([]);
    expect(timers[1]!.ms).toBe(15 * 60_000);

    stop();
    expect(timers[1]!.cancelled).toBe(true);
    await store.close();
  });
});

describe("sweeper, when the wall clock moves", () => {
  /** A wall clock and elapsed time: `advance` moves both, `jump` only the wall clock (NTP at boot, a set clock). */
  const clocks = (start: number) => {
    const wall = manualClock(start);
    let mono = 0;
    return { wall, monotonic: { elapsed: () => mono }, advance: (ms: number) => (wall.advance(ms), (mono += ms)), jump: (ms: number) => wall.advance(ms) };
  };
  const finishedTurn = async (store: Awaited<ReturnType<typeof openStore>>) => {
    const session = await store.sessions.create({ owner: "u" });
    const { continuation } = await store.continuations.create("u", session.id, { message: "a" });
    await store.continuations.update("u", continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    return { session, continuation };
  };

  it("keeps turns and sessions made while the clock was months behind at the first sweep after it is corrected, and sweeps them when they are really old", async () => {
    const dataDir = await tempDir();
    const c = clocks(Date.UTC(2026, 0, 1));
    const store = await openStore({ dataDir, clock: c.wall, monotonic: c.monotonic, sessionIdleMs: 7 * DAY, continuationRetentionMs: DAY });
    const made = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => finishedTurn(store)));
    c.advance(10 * 60_000);
    // NTP sets the clock 180 days forward: by the wall clock alone every turn is half a year old.
    c.jump(180 * DAY);
    let report = await store.sweep();
    expect(report).toMatchObject({ removedContinuations: 0, expiredSessions: 0, removedSessions: 0 });
    for (const { session, continuation } of made) expect(await store.continuations.get("u", continuation.id), session.id).toBeDefined();
    // A day of real time later they are past retention, and gone.
    c.advance(DAY);
    report = await store.sweep();
    expect(report.removedContinuations).toBe(7);
    await store.close();
  });

  it("keeps what it read at boot when the clock jumps forward later in the run", async () => {
    const dataDir = await tempDir();
    const c = clocks(Date.UTC(2026, 0, 1));
    const first = await openStore({ dataDir, clock: c.wall, monotonic: c.monotonic, continuationRetentionMs: DAY });
    const { continuation } = await finishedTurn(first);
    await first.close();
    c.advance(HOUR);
    const second = await openStore({ dataDir, clock: c.wall, monotonic: c.monotonic, continuationRetentionMs: DAY });
    c.jump(30 * DAY);
    expect((await second.sweep()).removedContinuations).toBe(0);
    expect(await second.continuations.get("u", continuation.id)).toBeDefined();
    c.advance(DAY);
    expect((await second.sweep()).removedContinuations).toBe(1);
    await second.close();
  });

  it("never sweeps sooner because the clock went back", async () => {
    const dataDir = await tempDir();
    const c = clocks(Date.UTC(2026, 6, 1));
    const store = await openStore({ dataDir, clock: c.wall, monotonic: c.monotonic, continuationRetentionMs: DAY });
    await finishedTurn(store);
    c.jump(-90 * DAY);
    c.advance(DAY - HOUR);
    expect((await store.sweep()).removedContinuations).toBe(0);
    await store.close();
  });
});
