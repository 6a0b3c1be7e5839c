import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { automationId, demoHouse } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";
import { RawClient } from "../../test/support/raw-client.js";

let sim: Simulator;
let c: RawClient;
let nextId = 1;

beforeEach(async () => {
  sim = await startSimulator({
    house: demoHouse(),
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

async function rest(method: string, path: string, body?: unknown, token = "admin-token"): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sim.apiUrl}${path}`, { method, headers: { Authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain text, like HA's 401.
  }
  return { status: res.status, body: parsed };
}

/** Resolves once `check` holds, polling the event loop (HA reloads after it answers). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

const draft = {
  alias: "Landing light at night",
  triggers: [{ trigger: "state", entity_id: "binary_sensor.landing_motion_sensor_motion", to: "on" }],
  conditions: [{ condition: "state", entity_id: "light.landing_ceiling", state: "off" }],
  actions: [{ action: "light.turn_on", target: { entity_id: "light.landing_ceiling" } }],
  mode: "single",
};

describe("the automation config view", () => {
  it("answers a saved automation's config as automations.yaml holds it, and 404 for an unknown id", async () => {
    const hall = await rest("GET", `/config/automation/config/${automationId("hall_light_at_night")}`);
    expect(hall.status).toBe(200);
    expect(hall.body).toMatchObject({ id: automationId("hall_light_at_night"), alias: "Hall light at night", triggers: [{ trigger: "state" }], conditions: [{}, { alias: "Hall light is off" }] });
    expect(await rest("GET", "/config/automation/config/nope")).toEqual({ status: 404, body: { message: "Resource not found" } });
  });

  it("validates, writes, answers ok, then reloads: the entity appears in the states and the registry, on", async () => {
    const saved = await rest("POST", "/config/automation/config/1763000000001", draft);
    expect(saved).toEqual({ status: 200, body: { result: "ok" } });
    await eventually(() => sim.home.getState("automation.landing_light_at_night") !== undefined);
    expect(sim.home.getState("automation.landing_light_at_night")).toMatchObject({
      state: "on",
      attributes: { id: "1763000000001", last_triggered: null, mode: "single", current: 0, friendly_name: "Landing light at night" },
    });
    const entry = (await cmd("config/entity_registry/get", { entity_id: "automation.landing_light_at_night" })).result;
    expect(entry).toMatchObject({ platform: "automation", unique_id: "1763000000001" });
    expect((await rest("GET", "/config/automation/config/1763000000001")).body).toEqual({ id: "1763000000001", ...draft });

    // A change keeps the entity; the new alias shows at once after the reload.
    await rest("POST", "/config/automation/config/1763000000001", { ...draft, alias: "Landing light after dark" });
    await eventually(() => sim.home.getState("automation.landing_light_at_night")?.attributes.friendly_name === "Landing light after dark");
    expect((await cmd("automation/config", { entity_id: "automation.landing_light_at_night" })).result.config.alias).toBe("Landing light after dark");
  });

  it("refuses what HA's validation refuses, with HA's 'Message malformed' and nothing written", async () => {
    const cases: [unknown, string][] = [
      [{ alias: "x", actions: [] }, "Message malformed: required key not provided @ data['triggers']"],
      [{ ...draft, triggers: [{ trigger: "sparkle" }] }, "Message malformed: Invalid trigger 'sparkle' specified"],
      [{ ...draft, actions: [{ light: "on" }] }, "Message malformed: Unable to determine action @ data[0]"],
      [{ ...draft, trigger: [] }, "Message malformed: Cannot specify both 'trigger' and 'triggers'. Please use 'triggers' only."],
      [{ ...draft, colour: "red" }, "Message malformed: extra keys not allowed @ data['colour']"],
    ];
    for (const [body, message] of cases) expect(await rest("POST", "/config/automation/config/1763000000002", body)).toEqual({ status: 400, body: { message } });
    expect(await rest("POST", "/config/automation/config/1763000000002", "{not json")).toEqual({ status: 400, body: { message: "Invalid JSON specified" } });
    expect((await rest("GET", "/config/automation/config/1763000000002")).status).toBe(404);
  });

  it("accepts the old singular keys (HA renames them) and stores the body as written", async () => {
    const old = { alias: "Old style", trigger: [{ platform: "time", at: "07:00:00" }], action: [{ service: "light.turn_off", target: { entity_id: "light.hallway_ceiling" } }] };
    expect((await rest("POST", "/config/automation/config/old1", old)).status).toBe(200);
    expect((await rest("GET", "/config/automation/config/old1")).body).toEqual({ id: "old1", ...old });
    await eventually(() => sim.home.getState("automation.old_style") !== undefined);
  });

  it("gives automations without an id one when it writes the file, as HA does", async () => {
    await rest("POST", "/config/automation/config/1763000000003", draft);
    await eventually(() => sim.home.getState("automation.landing_light_at_night") !== undefined);
    // The hand-written automation got an id in the file; its running entity keeps none until a full reload.
    expect(sim.home.getState("automation.towel_radiator_off_at_9")!.attributes).not.toHaveProperty("id");
    expect((await cmd("trace/list", { domain: "automation", item_id: "None" })).result).toHaveLength(1);
    await cmd("call_service", { domain: "automation", service: "reload" });
    await eventually(() => typeof sim.home.getState("automation.towel_radiator_off_at_9")?.attributes.id === "string");
    expect(sim.home.getState("automation.towel_radiator_off_at_9")!.attributes.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("deletes an automation and its registry entry, and answers 400 for one that is not there", async () => {
    await rest("POST", "/config/automation/config/1763000000004", draft);
    await eventually(() => sim.home.getState("automation.landing_light_at_night") !== undefined);
    expect(await rest("DELETE", "/config/automation/config/1763000000004")).toEqual({ status: 200, body: { result: "ok" } });
    await eventually(() => sim.home.getState("automation.landing_light_at_night") === undefined);
    expect((await cmd("config/entity_registry/get", { entity_id: "automation.landing_light_at_night" })).error.code).toBe("not_found");
    expect(await rest("DELETE", "/config/automation/config/1763000000004")).toEqual({ status: 400, body: { message: "Resource not found" } });
  });

  it("is for administrators only, like HA's @require_admin views", async () => {
    for (const [method, path] of [["GET", `/config/automation/config/${automationId("hall_light_at_night")}`], ["POST", "/config/automation/config/x"], ["DELETE", "/config/script/config/goodnight"], ["GET", "/template"], ["GET", "/error_log"]] as const) {
      expect(await rest(method, path, method === "POST" ? draft : undefined, "kid-token"), `${method} ${path}`).toEqual({ status: 401, body: "401: Unauthorized" });
    }
    const kid = await RawClient.authed(sim.wsUrl, "kid-token");
    try {
      expect((await kid.command({ id: 1, type: "automation/config", entity_id: "automation.hall_light_at_night" })).error.code).toBe("unauthorized");
    } finally {
      kid.close();
    }
  });
});

describe("the script config view", () => {
  it("answers the demo's scripts, writes new ones under a slug key, runs them with traces, and deletes them", async () => {
    expect((await rest("GET", "/config/script/config/goodnight")).body).toMatchObject({ alias: "Goodnight", sequence: [{ action: "light.turn_off" }, {}, {}, {}] });
    expect((await rest("POST", "/config/script/config/Bad Key", { sequence: [] })).body).toEqual({ message: "Key malformed: invalid slug Bad Key (try bad_key)" });
    expect((await rest("POST", "/config/script/config/porch_on", { alias: "x" })).body).toEqual({ message: "Message malformed: required key not provided @ data['sequence']" });
    const script = { alias: "Porch on", sequence: [{ action: "light.turn_on", target: { entity_id: "light.porch_light" } }], mode: "single" };
    expect((await rest("POST", "/config/script/config/porch_on", script)).body).toEqual({ result: "ok" });
    await eventually(() => sim.home.getState("script.porch_on") !== undefined);
    await cmd("call_service", { domain: "script", service: "porch_on" });
    expect(sim.home.getState("light.porch_light")?.state).toBe("on");
    const [run] = (await cmd("trace/list", { domain: "script", item_id: "porch_on" })).result;
    expect(run).toMatchObject({ domain: "script", item_id: "porch_on", state: "stopped", script_execution: "finished", last_step: "sequence/0" });
    expect(run).not.toHaveProperty("trigger");
    expect((await rest("DELETE", "/config/script/config/porch_on")).body).toEqual({ result: "ok" });
    await eventually(() => sim.home.getState("script.porch_on") === undefined);
  });
});

describe("validate_config", () => {
  it("takes only the plural keys and answers each section with {valid, error}", async () => {
    expect((await cmd("validate_config", { trigger: [] })).error).toEqual({ code: "invalid_format", message: "extra keys not allowed @ data['trigger']. Got []" });
    const ok = await cmd("validate_config", {
      triggers: { trigger: "state", entity_id: "light.does_not_exist", to: "on" },
      conditions: [{ condition: "state", entity_id: "sensor.nowhere", state: "1" }, "{{ true }}"],
      actions: [{ action: "light.turn_on", target: { entity_id: "light.does_not_exist" } }],
    });
    // Unknown entities are not errors there.
    expect(ok.result).toEqual({ triggers: { valid: true, error: null }, conditions: { valid: true, error: null }, actions: { valid: true, error: null } });
    const bad = await cmd("validate_config", { triggers: [{ platform: "non_existing", event_type: "hello" }], conditions: [{ condition: "non_existing", entity_id: "hello.world", state: "paulus" }], actions: { non_existing: "domain_test.test_service" } });
    expect(bad.result).toEqual({
      triggers: { valid: false, error: "Invalid trigger 'non_existing' specified" },
      conditions: { valid: false, error: "Invalid condition \"non_existing\" specified {'condition': 'non_existing', 'entity_id': 'hello.world', 'state': 'paulus'}" },
      actions: { valid: false, error: "Unable to determine action @ data[0]" },
    });
    expect((await cmd("validate_config", { triggers: [{ trigger: "state", to: "on" }] })).result.triggers).toEqual({ valid: false, error: "required key not provided @ data['entity_id']" });
    expect((await cmd("validate_config", {})).result).toEqual({});
  });

  it("is open to every user", async () => {
    const kid = await RawClient.authed(sim.wsUrl, "kid-token");
    try {
      expect((await kid.command({ id: 1, type: "validate_config", actions: [] })).result).toEqual({ actions: { valid: true, error: null } });
    } finally {
      kid.close();
    }
  });
});
