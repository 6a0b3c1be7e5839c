import { describe, expect, it } from "vitest";
import { kernelMonotonic } from "./monotonic.js";

/** performance.now() and the kernel's uptime, each moved by the test: `fake` moves only the first, as libfaketime does. */
function sources() {
  let perf = 5_000;
  let uptime = 1_000_000;
  let reads = 0;
  return {
    now: () => perf,
    uptimeMs: () => (reads++, uptime),
    pass: (ms: number) => ((perf += ms), (uptime += ms)),
    fake: (ms: number) => void (perf += ms),
    reads: () => reads,
  };
}

describe("kernelMonotonic", () => {
  it("measures elapsed time, reading the kernel's uptime at most every 250 ms", () => {
    const s = sources();
    const m = kernelMonotonic(s);
    expect(m.elapsed()).toBe(0);
    for (let i = 0; i < 100; i++) {
      s.pass(10);
      m.elapsed();
    }
    expect(m.elapsed()).toBe(1_000);
    expect(s.reads()).toBeLessThanOrEqual(6);
  });

  it("does not believe a faked jump of performance.now(), forward or back", () => {
    const s = sources();
    const m = kernelMonotonic(s);
    s.pass(60_000);
    expect(m.elapsed()).toBe(60_000);
    s.fake(180 * 86_400_000);
    s.pass(1_000);
    expect(m.elapsed()).toBe(61_000);
    s.fake(-200 * 86_400_000);
    s.pass(1_000);
    expect(m.elapsed()).toBe(62_000);
  });

  it("never goes back, and without an uptime counts performance.now()'s forward steps only", () => {
    const s = sources();
    const m = kernelMonotonic({ now: s.now, uptimeMs: () => undefined });
    s.pass(500);
    expect(m.elapsed()).toBe(500);
    s.fake(-10_000);
    expect(m.elapsed()).toBe(500);
    s.pass(100);
    expect(m.elapsed()).toBe(600);
  });

  it("reads the real /proc/uptime on Linux: it moves with time", async () => {
    const m = kernelMonotonic();
    const a = m.elapsed();
    await new Promise((r) => setTimeout(r, 300));
    const b = m.elapsed();
    expect(b - a).toBeGreaterThanOrEqual(250);
    expect(b - a).toBeLessThan(5_000);
  });
});
