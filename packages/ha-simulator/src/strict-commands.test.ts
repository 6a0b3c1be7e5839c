import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allCommands } from "./commands/index.js";
import { demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

let sim: Simulator;
let c: RawClient;
let nextId = 1;

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse() });
  c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  nextId = 1;
});

afterEach(async () => {
  c.close();
  await sim.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cmd = (type: string, extra: Record<string, unknown> = {}): Promise<any> => c.command({ id: nextId++, type, ...extra });

describe("command schemas are as strict as HA's", () => {
  it("every command refuses a key it does not know with invalid_format, as voluptuous does", async () => {
    const types = [...allCommands().keys()];
    expect(types.length).toBeGreaterThan(20);
    for (const type of types) {
      const reply = await cmd(type, { no_such_field: 1 });
      expect(reply.success, type).toBe(false);
      expect(reply.error.code, type).toBe("invalid_format");
      expect(reply.error.message, type).toMatch(/^extra keys not allowed( @ data\['no_such_field'\]\. Got 1|\. Got \{'id': \d+, 'type': '[^']+', 'no_such_field': 1\})$/m);
    }
  });

  it("answers with voluptuous's exact wording: one line per problem, sorted, with the offending value", async () => {
    const id = nextId;
    expect((await cmd("get_states", { entity_id: "light.x" })).error).toEqual({
      code: "invalid_format",
      message: `extra keys not allowed. Got {'id': ${id}, 'type': 'get_states', 'entity_id': 'light.x'}`,
    });
    // A misspelled field is an extra key, and the real one is then missing.
    expect((await cmd("call_service", { domain: "light", service: "turn_on", service_date: { brightness: 1 } })).error.message).toBe(
      "extra keys not allowed @ data['service_date']. Got {'brightness': 1}",
    );
    expect((await cmd("call_service", { domain: "light", servce: "turn_on" })).error.message).toBe(
      "extra keys not allowed @ data['servce']. Got 'turn_on'\nrequired key not provided @ data['service']. Got None",
    );
    expect((await cmd("call_service", { domain: "light", service: "turn_on", target: { entity: "light.x" } })).error.message).toBe(
      "extra keys not allowed @ data['target']['entity']. Got 'light.x'",
    );
    expect((await cmd("call_service", { domain: 5, service: "turn_on", return_response: "yes" })).error.message).toBe(
      "expected bool for dictionary value @ data['return_response']. Got 'yes'\nexpected str for dictionary value @ data['domain']. Got 5",
    );
    expect((await cmd("config/entity_registry/get", { entity_id: "Light.Bad Id" })).error.message).toBe(
      "Entity ID light.bad id is an invalid entity ID for dictionary value @ data['entity_id']. Got 'Light.Bad Id'",
    );
    expect((await cmd("logbook/get_events", { start_time: "2026-01-01T00:00:00Z", entity_ids: "light.x" })).error.message).toBe(
      "expected a list for dictionary value @ data['entity_ids']. Got 'light.x'",
    );
    expect((await cmd("history/history_during_period", { start_time: "2026-01-01T00:00:00Z", entity_ids: ["light.x", 7] })).error.message).toBe(
      "expected str @ data['entity_ids'][1]. Got 7",
    );
  });

  it("accepts what HA accepts: optional fields, lists as comma-separated text, case-folded entity ids", async () => {
    expect((await cmd("subscribe_entities", { entity_ids: "Light.Kitchen_Ceiling, sensor.kitchen_temperature" })).success).toBe(true);
    const snapshot = await c.until((m) => m.type === "event");
    expect(Object.keys(snapshot.event.a).sort()).toEqual(["light.kitchen_ceiling", "sensor.kitchen_temperature"]);
    expect((await cmd("supported_features", { features: { coalesce_messages: 1 } })).success).toBe(true);
    expect((await cmd("supported_features", { features: { coalesce_messages: "yes" } })).error.message).toBe(
      "expected int for dictionary value @ data['features']['coalesce_messages']. Got 'yes'",
    );
    expect((await cmd("render_template", { template: "{{ 1 + 1 }}", timeout: "3" })).success).toBe(true);
  });

  it("checks the schema before the admin check, as HA's decorators do", async () => {
    sim.users.add({ id: "u-guest", name: "Guest", isAdmin: false, tokens: ["guest-token"] });
    const guest = await RawClient.authed(sim.wsUrl, "guest-token");
    try {
      expect((await guest.command({ id: 1, type: "system_log/list", extra: 1 })).error.code).toBe("invalid_format");
      expect((await guest.command({ id: 2, type: "system_log/list" })).error).toEqual({ code: "unauthorized", message: "Unauthorized" });
    } finally {
      guest.close();
    }
  });
});
