import { afterEach, describe, expect, it } from "vitest";
import type { SystemLogEntry } from "../../ha/index.js";
import { createHomeIndex } from "../../indexer/index.js";
// Test support of the indexer (same owner): a scripted HaClient and a small home.
import { createFakeHa, type FakeHa } from "../../../test/support/indexer/fake-ha.js";
import { fixtureRegistries, fixtureStates } from "../../../test/support/indexer/fixture-home.js";
import { manualClock, silentLogger } from "../../shared/index.js";
import { ToolRegistry } from "../registry.js";
import type { ToolCallContext } from "../tool.js";
import { createGroundingTools } from "./index.js";

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const ctx: ToolCallContext = {
  principal: { id: "u1", name: "Test", kind: "user", isAdmin: true },
  signal: new AbortController().signal,
  progress: async () => undefined,
};
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

async function setup(opts: { start?: boolean; timeZone?: string } = {}): Promise<{ ha: FakeHa; registry: ToolRegistry }> {
  const ha = createFakeHa(fixtureRegistries());
  const clock = manualClock(NOW);
  const index = createHomeIndex({ ha, logger: silentLogger, clock });
  stops.push(() => index.stop());
  const registry = new ToolRegistry();
  const zone = opts.timeZone;
  for (const t of createGroundingTools({ index, ha, clock, ...(zone ? { timeZone: async () => zone } : {}) })) registry.register(t);
  if (opts.start !== false) {
    const starting = index.start();
    await new Promise((r) => setImmediate(r));
    ha.pushEntities({ a: fixtureStates() }, true);
    await starting;
  }
  return { ha, registry };
}

const sec = (ms: number) => ms / 1000;
function logEntry(over: Partial<SystemLogEntry>): SystemLogEntry {
  return {
    name: "homeassistant.components.zha.core.device",
    message: ["x"],
    level: "ERROR",
    source: ["components/zha/core/device.py", 10],
    timestamp: sec(NOW - 3_600_000),
    first_occurred: sec(NOW - 20 * 3_600_000),
    count: 1,
    exception: "",
    ...over,
  };
}

async function value(registry: ToolRegistry, name: string, args: unknown) {
  const out = await registry.call(name, args, ctx);
  if (!out.ok) throw new Error(`${out.error.code}: ${out.error.message}`);
  return out.value;
}

describe("grounding tools", () => {
  it("registers the five tools under their wire names", async () => {
    const { registry } = await setup();
    expect(registry.list().map((t) => registry.wireName(t.name))).toEqual([
      "ha_agent_index_search",
      "ha_agent_state_query",
      "ha_agent_diagnose_entity",
      "ha_agent_analyze_errors",
      "ha_agent_render_context",
    ]);
    for (const t of registry.list()) {
      for (const [key, field] of Object.entries(t.input.shape)) expect((field as { description?: string }).description, `${t.name}.${key}`).toBeTruthy();
    }
  });

  it("index_search returns exactly its schema's fields", async () => {
    const { registry } = await setup();
    const out = await value(registry, "index_search", { query: "kichen light" });
    const results = out.results as Record<string, unknown>[];
    expect(results[0]).toMatchObject({ entity_id: "light.kitchen_spots", name: "Kitchen Spots", domain: "light", area: "Kitchen", state: "on" });
    expect(Object.keys(results[0]!).sort()).toEqual(["area", "domain", "entity_id", "name", "score", "state", "why"]);
    expect(results[0]!.why).toMatch(/typo for "kitchen"/);
  });

  it("names the bad argument, and the unknown filter value", async () => {
    const { registry } = await setup();
    const bad = await registry.call("index_search", { query: "x", limit: 0 }, ctx);
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(!bad.ok && bad.error.message).toMatch(/^limit:/);
    const area = await registry.call("state_query", { area: "attic" }, ctx);
    expect(area).toMatchObject({ ok: false, error: { code: "unknown_area" } });
  });

  it("says the index is not ready before the first sync", async () => {
    const { registry } = await setup({ start: false });
    expect(await registry.call("index_search", { query: "x" }, ctx)).toMatchObject({ ok: false, error: { code: "index_not_ready" } });
  });

  it("state_query is compact by default and adds attributes on request", async () => {
    const { registry } = await setup();
    const out = await value(registry, "state_query", { area: "Lounge" });
    const entities = out.entities as Record<string, unknown>[];
    expect(entities.map((e) => e.entity_id)).toEqual(["sensor.living_room_humidity", "sensor.living_room_temperature"]);
    expect(entities[0]).not.toHaveProperty("attributes");
    const withAttrs = await value(registry, "state_query", { entity_ids: ["sensor.living_room_temperature", "sensor.nope"], attributes: ["device_class"] });
    expect(withAttrs.entities).toEqual([expect.objectContaining({ attributes: { device_class: "temperature" }, unit: "°C", state: "21.5" })]);
    expect(withAttrs.missing).toEqual(["sensor.nope"]);
  });

  it("diagnose_entity names availability flaps and the device's log errors", async () => {
    const { ha, registry } = await setup();
    const rows = [];
    for (let i = 0; i < 8; i++) {
      rows.push({ s: "off", lu: sec(NOW - (20 - i * 2) * 3_600_000) });
      rows.push({ s: "unavailable", lu: sec(NOW - (19 - i * 2) * 3_600_000) });
    }
    rows.push({ s: "off", lu: sec(NOW - 60_000) });
    ha.historyResult = { "binary_sensor.hall_motion": rows };
    ha.systemLogEntries = [
      logEntry({ message: ["Hall Motion: request timed out"], count: 37 }),
      logEntry({ name: "homeassistant.components.hue", message: ["bridge slow"], count: 2 }),
      logEntry({ message: ["coordinator restarted"], count: 1 }),
    ];
    const out = await value(registry, "diagnose_entity", { entity_id: "binary_sensor.hall_motion" });
    expect(out.history).toMatchObject({ unavailable_count: 8, window_hours: 24 });
    const findings = out.findings as string[];
    expect(findings[0]).toBe(`flapping: unavailable 8 times in 24 h, last at ${new Date(NOW - 5 * 3_600_000).toISOString().slice(11, 16)} UTC`);
    expect(findings).toContain("integration zha logged 37 timeouts for this device");
    expect(out.log_entries).toEqual([
      expect.objectContaining({ matched_on: "device", count: 37 }),
      expect.objectContaining({ matched_on: "integration", message: "coordinator restarted" }),
    ]);
    expect(out.related).toEqual([{ entity_id: "sensor.hall_motion_battery", name: "Hall Motion Battery", state: "87" }]);
    expect(out.device).toMatchObject({ manufacturer: "Aqara" });
  });

  it("diagnose_entity words logbook entries with the index's names, as HA sends none for state changes", async () => {
    const { ha, registry } = await setup();
    ha.logbookEntries = [
      { when: sec(NOW - 7_200_000), state: "unavailable", entity_id: "binary_sensor.hall_motion" },
      { when: sec(NOW - 3_600_000), state: "off", entity_id: "binary_sensor.hall_motion", context_user_id: "u1", context_event_type: "call_service", context_domain: "homeassistant", context_service: "update_entity" },
      { when: sec(NOW - 60_000), name: "Hall sensor", message: "was reset", domain: "zha" },
    ];
    const out = await value(registry, "diagnose_entity", { entity_id: "binary_sensor.hall_motion" });
    expect((out.logbook as { message: string }[]).map((l) => l.message)).toEqual([
      "Hall Motion Motion changed to unavailable",
      "Hall Motion Motion changed to off (by homeassistant.update_entity)",
      "Hall sensor was reset",
    ]);
  });

  it("diagnose_entity suggests ids for an unknown entity", async () => {
    const { registry } = await setup();
    const out = await registry.call("diagnose_entity", { entity_id: "light.kitchen_spot" }, ctx);
    expect(out).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(!out.ok && out.error.message).toContain("light.kitchen_spots");
  });

  it("analyze_errors groups by integration and entity, filtered by window and level", async () => {
    const { ha, registry } = await setup();
    ha.systemLogEntries = [
      logEntry({ message: ["Hall Motion: request timed out"], count: 37 }),
      logEntry({ message: ["Update of sensor.living_room_temperature failed"], count: 3, level: "WARNING" }),
      logEntry({ name: "homeassistant.components.hue.light", message: ["light.bedroom_ceiling unreachable"], count: 5 }),
      logEntry({ name: "homeassistant.components.hue.light", message: ["old"], count: 9, timestamp: sec(NOW - 50 * 3_600_000) }),
      logEntry({ name: "custom_components.foo", message: ["info only"], level: "INFO", count: 4 }),
    ];
    ha.errorLogText = `2026-01-10 11:00:00.000 ERROR (MainThread) [homeassistant.components.mqtt] Lost connection\nTraceback...\n  line 2\n2026-01-10 11:30:00.000 ERROR (MainThread) [homeassistant.components.mqtt] Lost connection\n`;
    const out = await value(registry, "analyze_errors", {});
    const integrations = out.integrations as Record<string, unknown>[];
    expect(integrations.map((g) => [g.integration, g.occurrences])).toEqual([["zha", 40], ["hue", 5], ["mqtt", 2]]);
    expect(integrations[0]).toMatchObject({ errors: 37, warnings: 3, entities: ["binary_sensor.hall_motion", "sensor.living_room_temperature"] });
    const mqtt = (out.records as Record<string, unknown>[]).find((r) => r.integration === "mqtt");
    expect(mqtt).toMatchObject({ count: 2, origin: "error_log", first_seen: "2026-01-10T11:00:00.000Z", last_seen: "2026-01-10T11:30:00.000Z" });
    expect((out.affected as Record<string, unknown>[])[0]).toMatchObject({ entity_id: "binary_sensor.hall_motion", occurrences: 37 });
    expect((out.devices as Record<string, unknown>[])[0]).toMatchObject({ device_id: "dev_motion", name: "Hall Motion", occurrences: 37, integrations: ["zha"] });
    const errorsOnly = await value(registry, "analyze_errors", { min_level: "ERROR", integration: "hue", include_error_log: false });
    expect((errorsOnly.records as unknown[]).length).toBe(1);
    const unknownEntity = await value(registry, "analyze_errors", { entity_id: "sensor.gone" });
    expect(unknownEntity).toMatchObject({ total_occurrences: 0, notes: ["sensor.gone is not in the index; matching its id in messages only."] });
  });

  it("a part HA cannot give is named in notes, and the rest still answers", async () => {
    const { ha, registry } = await setup();
    ha.systemLogEntries = [logEntry({ message: ["Hall Motion: request timed out"], count: 2 })];
    ha.errorLog = async () => {
      throw new Error("404: Not Found");
    };
    const out = await value(registry, "analyze_errors", {});
    expect(out.notes).toEqual(["The error log could not be read from Home Assistant: 404: Not Found"]);
    expect(out.total_occurrences).toBe(2);
    const diagnosis = await value(registry, "diagnose_entity", { entity_id: "binary_sensor.hall_motion" });
    expect(diagnosis.notes).toEqual(["The error log could not be read from Home Assistant: 404: Not Found"]);
    expect(diagnosis.log_entries).toEqual([expect.objectContaining({ matched_on: "device", count: 2 })]);
  });

  it("render_context renders an area with a token estimate", async () => {
    const { registry } = await setup();
    const out = await value(registry, "render_context", { area: "hallway" });
    expect(out.text).toContain("## Hallway (Ground Floor)");
    expect(out.entity_count).toBe(3);
    expect(out.token_estimate).toBe(Math.ceil((out.text as string).length / 4));
    expect(await registry.call("render_context", {}, ctx)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });

  it("render_context keeps the device and id selectors when it searches", async () => {
    const { registry } = await setup();
    const all = await value(registry, "render_context", { query: "bedroom" });
    expect(all.entity_count).toBeGreaterThan(1);
    const onDevice = await value(registry, "render_context", { query: "bedroom", device: "dev_bulb" });
    expect(onDevice.entity_count).toBe(1);
    expect(onDevice.text).toContain("light.bedroom_ceiling");
    const byId = await value(registry, "render_context", { query: "bedroom", entity_ids: ["light.bedroom_reading_lamp"] });
    expect(byId.entity_count).toBe(1);
    expect(byId.text).toContain("light.bedroom_reading_lamp");
  });

  it("marks answers from the last known states as stale, with when HA was last seen, only while HA is away", async () => {
    const { ha, registry } = await setup();
    const live = await value(registry, "state_query", { area: "hallway" });
    expect(live).not.toHaveProperty("stale");
    expect(live).not.toHaveProperty("ha_last_seen");

    const lastSeen = NOW - 90_000;
    Object.assign(ha, { status: "reconnecting", lastSeenAt: lastSeen });
    const states = await value(registry, "state_query", { area: "hallway" });
    expect(states).toMatchObject({ stale: true, ha_last_seen: new Date(lastSeen).toISOString() });
    // First in the JSON a model reads, so a cut preview still carries it.
    expect(Object.keys(states).slice(0, 3)).toEqual(["stale", "stale_reason", "ha_last_seen"]);
    expect(states.stale_reason).toBe("ha_unreachable");
    const search = await value(registry, "index_search", { query: "hallway" });
    expect(search).toMatchObject({ stale: true, ha_last_seen: new Date(lastSeen).toISOString() });
    const rendered = await value(registry, "render_context", { area: "hallway" });
    expect(rendered).toMatchObject({ stale: true, ha_last_seen: new Date(lastSeen).toISOString() });
    expect((rendered.text as string).split("\n")[0]).toBe(`STALE: Home Assistant is unreachable since ${new Date(lastSeen).toISOString()}; these are the last known states, not live ones.`);
    expect(rendered.token_estimate).toBe(Math.ceil((rendered.text as string).length / 4));

    Object.assign(ha, { status: "connected", lastSeenAt: NOW });
    expect(await value(registry, "render_context", { area: "hallway" })).not.toHaveProperty("stale");
  });

  it("writes times with Home Assistant's UTC offset, as the time tools do, when it knows the home's zone", async () => {
    const { ha, registry } = await setup({ timeZone: "Europe/Amsterdam" });
    const out = (await value(registry, "state_query", { domain: "light", limit: 1 })) as { entities: { last_changed: string | null }[] };
    expect(out.entities[0]!.last_changed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/);
    Object.assign(ha, { status: "reconnecting", lastSeenAt: NOW - 60_000 });
    const stale = (await value(registry, "index_search", { query: "light" })) as { ha_last_seen?: string };
    expect(stale.ha_last_seen).toMatch(/\+01:00$/);
    const errors = (await value(registry, "analyze_errors", { since_hours: 24 })) as { window_end: string };
    expect(errors.window_end).toBe("2026-01-10T13:00:00+01:00");
  });
});
