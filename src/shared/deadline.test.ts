import { afterEach, describe, expect, it, vi } from "vitest";
import { manualClock } from "./clock.js";
import { ClockJumps, MAX_TIMER_MS, watchDeadline, type ClockJump } from "./deadline.js";

afterEach(() => vi.useRealTimers());

/** A wall clock and a monotonic one; `advance` moves both, `jump` only the wall clock. */
function clocks(start = Date.UTC(2026, 5, 1)) {
  const wall = manualClock(start);
  let mono = 1_000;
  return {
    wall,
    monotonic: { elapsed: () => mono },
    advance(ms: number) {
      wall.advance(ms);
      mono += ms;
      vi.advanceTimersByTime(ms);
    },
    jump: (ms: number) => wall.advance(ms),
  };
}

describe("watchDeadline", () => {
  it("never arms a timer beyond Node's limit, even for a deadline 180 days away", () => {
    vi.useFakeTimers();
    const spy = vi.spyOn(globalThis, "setTimeout");
    const c = clocks();
    const due = vi.fn();
    const stop = watchDeadline({ clock: c.wall, monotonic: c.monotonic, expiresAt: c.wall.now() + 180 * 86_400_000, maxMs: 400 * 86_400_000, due });
    c.advance(3_600_000);
    expect(spy.mock.calls.length).toBeGreaterThan(0);
    for (const [, ms] of spy.mock.calls) expect(ms).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(due).not.toHaveBeenCalled();
    stop();
  });

  it("keeps the approval's own timeout when the wall clock is far behind its deadline, and ends by elapsed time", () => {
    vi.useFakeTimers();
    const c = clocks();
    const due = vi.fn();
    // Requested with a right clock; after a reboot the clock reads 180 days earlier.
    watchDeadline({ clock: c.wall, monotonic: c.monotonic, expiresAt: c.wall.now() + 180 * 86_400_000 + 600_000, maxMs: 600_000, due });
    c.advance(599_000);
    expect(due).not.toHaveBeenCalled();
    c.advance(31_000);
    expect(due).toHaveBeenCalledOnce();
  });

  it("ends at the next look once the wall clock jumps past the deadline", () => {
    vi.useFakeTimers();
    const c = clocks();
    const due = vi.fn();
    const jumps: ClockJump[] = [];
    const watcher = new ClockJumps({ clock: c.wall, monotonic: c.monotonic, onJump: (j) => jumps.push(j) });
    watchDeadline({ clock: c.wall, monotonic: c.monotonic, jumps: watcher, expiresAt: c.wall.now() + 600_000, maxMs: 600_000, due, checkMs: 1_000 });
    c.jump(3_600_000);
    c.advance(1_000);
    expect(due).toHaveBeenCalledOnce();
    expect(jumps).toHaveLength(1);
    expect(jumps[0]).toMatchObject({ elapsedMs: 1_000, jumpMs: 3_600_000 });
  });
});

describe("ClockJumps", () => {
  it("reports a jump in either direction once, with both readings, and not ordinary drift", () => {
    const c = clocks();
    const jumps: ClockJump[] = [];
    const watcher = new ClockJumps({ clock: c.wall, monotonic: c.monotonic, onJump: (j) => jumps.push(j) });
    c.wall.advance(1_000);
    watcher.check();
    c.jump(-180 * 86_400_000);
    watcher.check();
    watcher.check();
    expect(jumps).toEqual([{ wallBefore: Date.UTC(2026, 5, 1) + 1_000, wallNow: Date.UTC(2026, 5, 1) + 1_000 - 180 * 86_400_000, elapsedMs: 0, jumpMs: -180 * 86_400_000 }]);
  });
});
