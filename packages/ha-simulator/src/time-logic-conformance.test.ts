import type { Connection } from "home-assistant-js-websocket";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "./common/index.js";
import { automationId, demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { connectHaws } from "../test/support/haws.js";

// 22:30 in Amsterdam.
const NOW = Date.UTC(2026, 10, 21, 21, 30);
let sim: Simulator;
let conn: Connection;

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse({ nowMs: NOW }), clock: manualClock(NOW) });
  conn = await connectHaws(sim.url, sim.users.tokenFor());
});

afterEach(async () => {
  conn.close();
  await sim.close();
});

describe("home-assistant-js-websocket against the simulator's time and logic APIs", () => {
  it("lists and fetches traces, and reads energy preferences and statistics", async () => {
    const list = await conn.sendMessagePromise<{ run_id: string; item_id: string; script_execution: string }[]>({ type: "trace/list", domain: "automation", item_id: automationId("hall_light_at_night") });
    const failed = list.find((t) => t.script_execution === "failed_conditions")!;
    const trace = await conn.sendMessagePromise<{ trace: Record<string, unknown[]>; item_id: string }>({ type: "trace/get", domain: "automation", item_id: failed.item_id, run_id: failed.run_id });
    expect(trace.item_id).toBe(automationId("hall_light_at_night"));
    expect(Object.keys(trace.trace)).toContain("condition/1/entity_id/0");

    const prefs = await conn.sendMessagePromise<{ energy_sources: { type: string }[] }>({ type: "energy/get_prefs" });
    expect(prefs.energy_sources[0]!.type).toBe("grid");
    const stats = await conn.sendMessagePromise<Record<string, { change: number }[]>>({
      type: "recorder/statistics_during_period", start_time: new Date(NOW - 7 * 86_400_000).toISOString(), statistic_ids: ["sensor.p1_meter_energy_import"], period: "day", types: ["change"], units: { energy: "kWh" },
    });
    expect(stats["sensor.p1_meter_energy_import"]!.length).toBeGreaterThanOrEqual(7);
  });

  it("sees validate_config's answer, and its refusal of a singular key as an error", async () => {
    expect(await conn.sendMessagePromise({ type: "validate_config", actions: [{ action: "light.turn_on" }] })).toEqual({ actions: { valid: true, error: null } });
    await expect(conn.sendMessagePromise({ type: "validate_config", action: [] })).rejects.toMatchObject({ code: "invalid_format" });
  });

  it("subscribes to render_template and gets the rendering, then a new one when the entity changes", async () => {
    const events: unknown[] = [];
    const unsub = await conn.subscribeMessage((e) => events.push(e), { type: "render_template", template: "{{ states('light.hallway_ceiling') }} at {{ now().hour }}" });
    await waitFor(() => events.length === 1);
    expect(events[0]).toEqual({ result: `${sim.home.getState("light.hallway_ceiling")!.state} at 22`, listeners: { all: false, domains: [], entities: ["light.hallway_ceiling"], time: true } });
    sim.home.setState("light.hallway_ceiling", "off");
    await waitFor(() => events.length === 2);
    expect(events[1]).toMatchObject({ result: "off at 22" });
    await unsub();
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}
