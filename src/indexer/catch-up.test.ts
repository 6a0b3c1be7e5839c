import { describe, expect, it } from "vitest";
import { manualClock } from "../shared/index.js";
import { createCatchUp } from "./catch-up.js";

describe("catch-up after a reconnect", () => {
  it("is behind from the drop until both the snapshot and the registries are in, in either order", () => {
    const clock = manualClock(1_000);
    const c = createCatchUp(clock);
    expect(c.since).toBeNull();
    c.lost();
    clock.advance(500);
    c.registriesApplied();
    expect(c.since).toBe(1_000);
    c.snapshotApplied();
    expect(c.since).toBeNull();

    c.lost();
    c.snapshotApplied();
    expect(c.registriesDue()).toBe(true);
    expect(c.since).toBe(1_500);
    c.registriesApplied();
    expect(c.since).toBeNull();
  });

  it("keeps the first drop's time through a second drop, and needs a new snapshot after it", () => {
    const clock = manualClock(1_000);
    const c = createCatchUp(clock);
    c.lost();
    c.snapshotApplied();
    clock.advance(2_000);
    c.lost();
    c.registriesApplied();
    expect(c.since).toBe(1_000);
    c.snapshotApplied();
    expect(c.since).toBeNull();
  });
});
