import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "../common/index.js";
import { automationId, demoHouse, lastNight } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";
import { RawClient } from "../../test/support/raw-client.js";

// 22:30 in Amsterdam: the sun is down.
const NOW = Date.UTC(2026, 10, 21, 21, 30);
const HALL = automationId("hall_light_at_night");
let sim: Simulator;
let c: RawClient;
let clock: ReturnType<typeof manualClock>;
let nextId = 1;

beforeEach(async () => {
  clock = manualClock(NOW);
  sim = await startSimulator({
    house: demoHouse({ nowMs: NOW }),
    clock,
    users: [
      { id: "admin", name: "Admin", isAdmin: true, tokens: ["admin-token"] },
      { id: "kid", name: "Kid", isAdmin: false, tokens: ["kid-token"] },
    ],
  });
  c = await RawClient.authed(sim.wsUrl, "admin-token");
  nextId = 1;
});

afterEach(async () => {
  c.close();
  await sim.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cmd = (type: string, extra: Record<string, unknown> = {}): Promise<any> => c.command({ id: nextId++, type, ...extra });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const traces = async (itemId?: string): Promise<any[]> => (await cmd("trace/list", { domain: "automation", ...(itemId ? { item_id: itemId } : {}) })).result;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the demo's stored traces", () => {
  it("answer 'why didn't the hall light turn on last night?': the condition 'Hall light is off' failed, the light was on", async () => {
    const list = await traces(HALL);
    expect(list.map((t) => t.script_execution)).toEqual(["finished", "failed_conditions"]);
    const failed = list[1];
    expect(failed).toEqual({
      last_step: "condition/1/entity_id/0",
      run_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      state: "stopped",
      script_execution: "failed_conditions",
      timestamp: { start: expect.any(String), finish: expect.any(String) },
      domain: "automation",
      item_id: HALL,
      trigger: "state of binary_sensor.hallway_motion_sensor_occupancy",
    });
    expect(Date.parse(failed.timestamp.start)).toBe(lastNight(NOW, "Europe/Amsterdam"));

    const full = (await cmd("trace/get", { domain: "automation", item_id: HALL, run_id: failed.run_id })).result;
    expect(Object.keys(full.trace)).toEqual(["trigger/0", "condition/0", "condition/0/entity_id/0", "condition/1", "condition/1/entity_id/0"]);
    expect(full.trace["condition/0/entity_id/0"][0].result).toEqual({ result: true, state: "below_horizon", wanted_state: "below_horizon" });
    expect(full.trace["condition/1"][0].result).toEqual({ result: false });
    // The step says what it saw, not which entity: that is in the config, at the same path with plural keys.
    expect(full.trace["condition/1/entity_id/0"][0]).toEqual({ path: "condition/1/entity_id/0", timestamp: expect.any(String), result: { result: false, state: "on", wanted_state: "off" } });
    expect(full.config.conditions[1]).toMatchObject({ alias: "Hall light is off", entity_id: "light.hallway_ceiling" });
    const trigger = full.trace["trigger/0"][0].changed_variables.trigger;
    expect(trigger).toMatchObject({ id: "0", idx: "0", platform: "state", entity_id: "binary_sensor.hallway_motion_sensor_occupancy", description: "state of binary_sensor.hallway_motion_sensor_occupancy" });
    expect([trigger.from_state.state, trigger.to_state.state]).toEqual(["off", "on"]);
    expect(full).toMatchObject({ blueprint_inputs: null, context: { id: expect.any(String), parent_id: null, user_id: null } });

    // Only the run the night before reached its actions, so last_triggered is from then.
    const lastTriggered = Date.parse(String(sim.home.getState("automation.hall_light_at_night")!.attributes.last_triggered));
    expect(lastTriggered).toBeLessThan(Date.parse(failed.timestamp.start));
    expect(lastTriggered).toBeGreaterThanOrEqual(Date.parse(list[0].timestamp.start));
  });

  it("agree with the recorded history: at 22:14 the light had been on since 21:43 and the sun was down", async () => {
    const night = lastNight(NOW, "Europe/Amsterdam");
    const history = (await cmd("history/history_during_period", {
      start_time: new Date(night - 3_600_000).toISOString(), end_time: new Date(night + 600_000).toISOString(),
      entity_ids: ["light.hallway_ceiling", "binary_sensor.hallway_motion_sensor_occupancy", "sun.sun"], minimal_response: true, no_attributes: true,
    })).result as Record<string, { s: string; lu: number }[]>;
    const at = (id: string, t: number) => history[id]!.filter((r) => r.lu * 1000 <= t).at(-1)!.s;
    expect(at("light.hallway_ceiling", night)).toBe("on");
    expect(history["light.hallway_ceiling"]!.find((r) => r.s === "on" && r.lu * 1000 > night - 3_600_000)!.lu * 1000).toBe(night - 31 * 60_000);
    expect(at("binary_sensor.hallway_motion_sensor_occupancy", night)).toBe("on");
    expect(at("binary_sensor.hallway_motion_sensor_occupancy", night - 1)).toBe("off");
    expect(at("sun.sun", night)).toBe("below_horizon");
  });

  it("keep the failed notification's error, and file the automation without an id under 'None', still running", async () => {
    const [failed] = await traces(automationId("washing_machine_done"));
    expect(failed).toMatchObject({ state: "stopped", script_execution: "error", last_step: "action/0", error: "Action notify.mobile_app_sams_phone not found." });
    const full = (await cmd("trace/get", { domain: "automation", item_id: failed.item_id, run_id: failed.run_id })).result;
    expect(full.trace["action/0"][0]).toMatchObject({
      error: "Action notify.mobile_app_sams_phone not found.",
      result: { params: { domain: "notify", service: "mobile_app_sams_phone", service_data: { message: "The washing is done." }, target: {} }, running_script: false },
    });

    const [none] = await traces("None");
    expect(none).toMatchObject({ item_id: "None", state: "running", script_execution: null, timestamp: { finish: null }, trigger: "time", last_step: "action/0" });
    expect(sim.home.getState("automation.towel_radiator_off_at_9")?.attributes).not.toHaveProperty("id");
    expect((await traces()).length).toBeGreaterThanOrEqual(8);
  });

  it("are for administrators only, and an unknown run is not_found", async () => {
    const kid = await RawClient.authed(sim.wsUrl, "kid-token");
    try {
      for (const [type, extra] of [["trace/list", { domain: "automation" }], ["trace/get", { domain: "automation", item_id: HALL, run_id: "x" }], ["trace/contexts", {}]] as const) {
        expect((await kid.command({ id: nextId++, type, ...extra })).error, type).toEqual({ code: "unauthorized", message: "Unauthorized" });
      }
    } finally {
      kid.close();
    }
    expect((await cmd("trace/get", { domain: "automation", item_id: HALL, run_id: "nope" })).error).toEqual({ code: "not_found", message: "The trace could not be found" });
    expect((await cmd("trace/list", { domain: "light" })).error.code).toBe("invalid_format");
    const [first] = await traces(HALL);
    const { context } = (await cmd("trace/get", { domain: "automation", item_id: HALL, run_id: first.run_id })).result;
    expect((await cmd("trace/contexts", { domain: "automation", item_id: HALL })).result[context.id]).toEqual({ run_id: first.run_id, domain: "automation", item_id: HALL });
    expect((await cmd("trace/contexts", { domain: "automation" })).error.code).toBe("invalid_format");
  });
});

describe("live runs", () => {
  it("turn the hall light on when the motion sensor fires at night and the light is off, and record the run", async () => {
    await cmd("call_service", { domain: "light", service: "turn_off", target: { entity_id: "light.hallway_ceiling" } });
    clock.advance(60_000);
    sim.home.setState("binary_sensor.hallway_motion_sensor_occupancy", "on");
    await settle();
    expect(sim.home.getState("light.hallway_ceiling")).toMatchObject({ state: "on", attributes: { brightness: 102 } });
    const latest = (await traces(HALL)).at(-1);
    expect(latest).toMatchObject({ state: "stopped", script_execution: "finished", last_step: "action/0" });
    const full = (await cmd("trace/get", { domain: "automation", item_id: HALL, run_id: latest.run_id })).result;
    expect(full.trace["action/0"][0]).toMatchObject({
      changed_variables: { context: full.context },
      result: { params: { domain: "light", service: "turn_on", service_data: { brightness_pct: 40 }, target: { entity_id: "light.hallway_ceiling" } }, running_script: false },
    });
    // The light changed in the run's context, whose parent is the motion sensor's change.
    expect(sim.home.getState("light.hallway_ceiling")!.context.id).toBe(full.context.id);
    expect(full.context.parent_id).toBe(sim.home.getState("binary_sensor.hallway_motion_sensor_occupancy")!.context.id);
    expect(Date.parse(String(sim.home.getState("automation.hall_light_at_night")!.attributes.last_triggered))).toBe(Date.parse(full.timestamp.start));

    // Motion again while the light is on: the condition stops it, and last_triggered stays.
    const before = sim.home.getState("automation.hall_light_at_night")!.attributes.last_triggered;
    sim.home.setState("binary_sensor.hallway_motion_sensor_occupancy", "off");
    clock.advance(60_000);
    sim.home.setState("binary_sensor.hallway_motion_sensor_occupancy", "on");
    await settle();
    expect((await traces(HALL)).at(-1)).toMatchObject({ script_execution: "failed_conditions", last_step: "condition/1/entity_id/0" });
    expect(sim.home.getState("automation.hall_light_at_night")!.attributes.last_triggered).toBe(before);
  });

  it("fire time triggers when the clock passes them, and not while the automation is off", async () => {
    await cmd("call_service", { domain: "switch", service: "turn_on", target: { entity_id: "switch.kitchen_coffee_machine" } });
    const count = (await traces(automationId("coffee_machine_auto_off"))).length;
    clock.set(Date.UTC(2026, 10, 22, 9, 0, 1)); // 10:00:01 in Amsterdam
    sim.tick();
    await settle();
    expect(sim.home.getState("switch.kitchen_coffee_machine")?.state).toBe("off");
    const runs = await traces(automationId("coffee_machine_auto_off"));
    expect(runs).toHaveLength(count + 1);
    expect(runs.at(-1)).toMatchObject({ trigger: "time", script_execution: "finished" });

    await cmd("call_service", { domain: "automation", service: "turn_off", target: { entity_id: "automation.morning_shutters" } });
    const shutters = (await traces(automationId("morning_shutters"))).length;
    clock.set(Date.UTC(2026, 10, 23, 6, 30, 1));
    sim.tick();
    await settle();
    expect(await traces(automationId("morning_shutters"))).toHaveLength(shutters);
  });

  it("run through automation.trigger with the conditions skipped, and record a missing service as the run's error", async () => {
    await cmd("call_service", { domain: "automation", service: "trigger", target: { entity_id: "automation.washing_machine_done" } });
    const run = (await traces(automationId("washing_machine_done"))).at(-1);
    expect(run).toMatchObject({ script_execution: "error", error: "Action notify.mobile_app_sams_phone not found.", trigger: null });
    const full = (await cmd("trace/get", { domain: "automation", item_id: run.item_id, run_id: run.run_id })).result;
    expect(Object.keys(full.trace)).toEqual(["trigger", "action/0"]);
  });
});
