import { describe, expect, it } from "vitest";
import { applyStateDiff, toLiveState, touchesStructure } from "./live-state.js";

describe("subscribe_entities reducer", () => {
  const base = toLiveState({ s: "on", a: { brightness: 10, friendly_name: "Lamp", effect: "none" }, c: "x", lc: 100, lu: 105 });

  it("reads epoch seconds into milliseconds, lu defaulting to lc", () => {
    expect(base).toMatchObject({ lastChanged: 100_000, lastUpdated: 105_000 });
    expect(toLiveState({ s: "off", a: {}, c: "x", lc: 7 }).lastUpdated).toBe(7000);
  });

  it("merges added attributes, drops removed ones, and leaves the old state untouched", () => {
    const next = applyStateDiff(base, { "+": { s: "off", a: { brightness: 0 }, lc: 200 }, "-": { a: ["effect"] } });
    expect(next).toEqual({ state: "off", attributes: { brightness: 0, friendly_name: "Lamp" }, lastChanged: 200_000, lastUpdated: 200_000 });
    expect(base.attributes).toEqual({ brightness: 10, friendly_name: "Lamp", effect: "none" });
  });

  it("moves only last_updated on an attribute-only change", () => {
    const next = applyStateDiff(base, { "+": { a: { brightness: 20 }, lu: 300 } });
    expect(next).toMatchObject({ state: "on", lastChanged: 100_000, lastUpdated: 300_000 });
  });

  it("knows which diffs can rename an entity", () => {
    expect(touchesStructure({ "+": { a: { friendly_name: "New" } } })).toBe(true);
    expect(touchesStructure({ "-": { a: ["device_class"] } })).toBe(true);
    expect(touchesStructure({ "+": { s: "on", a: { brightness: 1 } } })).toBe(false);
  });
});
