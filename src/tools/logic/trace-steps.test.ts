import { describe, expect, it } from "vitest";
import { configAt, stepKind } from "./config-paths.js";
import { MAX_FULL_CHARS, stepsOf } from "./trace-steps.js";
import { TraceDetailSchema } from "./traces.js";

/** A trace whose steps each carry a big state object, as a long repeat or a chatty sensor makes them. */
function bigTrace(steps: number) {
  const state = { entity_id: "sensor.x", state: "1", attributes: { history: "y".repeat(3_000) }, last_changed: "2026-11-25T21:14:03+00:00", context: { id: "c" } };
  const trace: Record<string, unknown[]> = { "trigger/0": [{ path: "trigger/0", timestamp: "2026-11-25T21:14:03+00:00", changed_variables: { this: state, trigger: { platform: "state", entity_id: "sensor.x", to_state: state } } }] };
  for (let i = 0; i < steps; i++) trace[`action/${i}`] = [{ path: `action/${i}`, timestamp: "2026-11-25T21:14:04+00:00", changed_variables: { [`v${i}`]: state, note: "z".repeat(2_000) }, result: { done: true } }];
  return TraceDetailSchema.parse({ run_id: "r", item_id: "1", domain: "automation", state: "stopped", script_execution: "finished", timestamp: { start: "2026-11-25T21:14:03+00:00", finish: null }, trace, config: null });
}

describe("a run's steps", () => {
  it("in full stay within the bound: state objects shortened first, then long texts, then the last steps, each cut said", () => {
    const { steps, notes } = stepsOf(bigTrace(60), "full", "Europe/Amsterdam");
    expect(JSON.stringify(steps).length).toBeLessThanOrEqual(MAX_FULL_CHARS);
    expect(notes).toEqual([expect.stringContaining("State objects"), expect.stringContaining("Texts longer than"), expect.stringMatching(/^Only the first \d+ of 61 steps fit/)]);
    expect(steps[0]!.changed_variables).toMatchObject({ this: { entity_id: "sensor.x", state: "1" } });
    expect(steps[0]!.timestamp).toBe("2026-11-25T22:14:03.000+01:00");
  });

  it("in full are whole when they fit, and say nothing was cut", () => {
    const { steps, notes } = stepsOf(bigTrace(2), "full", "UTC");
    expect(notes).toEqual([]);
    expect((steps[1]!.changed_variables as { note: string }).note).toHaveLength(2_000);
  });

  it("find their config through singular trace paths and plural config keys", () => {
    const config = { conditions: [{ condition: "state", entity_id: "light.a", state: "off" }, { condition: "or", conditions: [{ condition: "state", entity_id: ["light.b", "light.c"] }] }], actions: [{ if: [{ condition: "state", entity_id: "light.d" }] }] };
    expect(configAt(config, "condition/0/entity_id/0")).toBe("light.a");
    expect(configAt(config, "condition/1/conditions/0/entity_id/1")).toBe("light.c");
    expect(configAt(config, "action/0/if/condition/0/entity_id/0")).toBe("light.d");
    expect(configAt(config, "condition/7")).toBeUndefined();
    expect([stepKind("trigger/0"), stepKind("condition/1/entity_id/0"), stepKind("action/0/if/condition/0"), stepKind("action/2/then/0")]).toEqual(["trigger", "condition", "condition", "action"]);
  });
});
