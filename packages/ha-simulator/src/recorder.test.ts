import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "./common/index.js";
import { demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
let sim: Simulator;
let c: RawClient;
let clock: ReturnType<typeof manualClock>;
let nextId = 1;

beforeEach(async () => {
  clock = manualClock(NOW);
  sim = await startSimulator({ house: demoHouse({ nowMs: NOW }), clock });
  c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  nextId = 1;
});

afterEach(async () => {
  c.close();
  await sim.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cmd = (type: string, extra: Record<string, unknown> = {}): Promise<any> => c.command({ id: nextId++, type, ...extra });
const day = { start_time: iso(NOW - 24 * 3_600_000), end_time: iso(NOW) };

describe("history/history_during_period", () => {
  it("gives the flapping zha switch at least ten drops to unavailable and ends on the current state", async () => {
    const res = await cmd("history/history_during_period", { ...day, entity_ids: ["switch.garden_fountain_pump"], minimal_response: true });
    const rows = res.result["switch.garden_fountain_pump"] as { s: string; lu: number; a?: object }[];
    expect(rows.filter((r) => r.s === "unavailable").length).toBeGreaterThanOrEqual(10);
    expect(rows.at(-1)!.s).toBe(sim.home.getState("switch.garden_fountain_pump")!.state);
    expect(rows.at(-1)!.lu * 1000).toBe(Date.parse(sim.home.getState("switch.garden_fountain_pump")!.last_changed));
    expect(rows[0]).toHaveProperty("a");
    expect(Object.keys(rows[1]!).sort()).toEqual(["lu", "s"]);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.lu).toBeGreaterThan(rows[i - 1]!.lu);
  });

  it("starts with the state at start_time and drifts numeric sensors to today's value", async () => {
    const res = await cmd("history/history_during_period", { ...day, entity_ids: ["sensor.kitchen_temperature", "light.kitchen_ceiling"] });
    const temp = res.result["sensor.kitchen_temperature"] as { s: string; lu: number; a: { unit_of_measurement: string } }[];
    expect(temp[0]!.lu).toBe((NOW - 24 * 3_600_000) / 1000);
    expect(temp.length).toBeGreaterThan(40);
    expect(new Set(temp.map((r) => r.s)).size).toBeGreaterThan(5);
    expect(temp.every((r) => Number.isFinite(Number(r.s)) && r.a.unit_of_measurement === "°C")).toBe(true);
    expect(temp.at(-1)!.s).toBe(sim.home.getState("sensor.kitchen_temperature")!.state);
    const light = res.result["light.kitchen_ceiling"] as { s: string }[];
    expect(new Set(light.map((r) => r.s))).toEqual(new Set(["on", "off"]));
  });

  it("blanks the outage window and records live changes", async () => {
    const res = await cmd("history/history_during_period", { ...day, entity_ids: ["sensor.garden_shed_temperature"], no_attributes: true });
    const rows = res.result["sensor.garden_shed_temperature"] as { s: string; lu: number; a?: object }[];
    const outageStart = (NOW - 10 * 3_600_000) / 1000;
    const i = rows.findIndex((r) => r.s === "unavailable");
    expect(rows[i]!.lu).toBe(outageStart);
    expect(rows[i + 1]!.lu).toBe(outageStart + 1.5 * 3600);
    expect(rows.every((r) => r.a === undefined)).toBe(true);

    clock.advance(60_000);
    sim.home.setState("sensor.garden_shed_temperature", "3.3");
    const later = await cmd("history/history_during_period", { start_time: iso(NOW), end_time: iso(NOW + 120_000), entity_ids: ["sensor.garden_shed_temperature"] });
    expect(later.result["sensor.garden_shed_temperature"].at(-1)).toMatchObject({ s: "3.3", lu: (NOW + 60_000) / 1000 });
  });

  it("rejects a bad start time with HA's code", async () => {
    expect((await cmd("history/history_during_period", { start_time: "yesterday", entity_ids: ["light.kitchen_ceiling"] })).error.code).toBe("invalid_start_time");
    expect((await cmd("history/history_during_period", { ...day, entity_ids: ["Not An Entity"] })).error.code).toBe("invalid_entity_ids");
    expect((await cmd("history/history_during_period", { start_time: iso(NOW + 3_600_000), entity_ids: ["light.kitchen_ceiling"] })).result).toEqual({});
  });

  it("leaves out the start-time row when include_start_time_state is false, and keeps climate attributes with no_attributes", async () => {
    const start = NOW - 3_600_000;
    const res = await cmd("history/history_during_period", {
      start_time: iso(start), entity_ids: ["sensor.kitchen_temperature", "climate.living_room_thermostat"], include_start_time_state: false, no_attributes: true,
    });
    expect(res.result["sensor.kitchen_temperature"].every((r: { lu: number }) => r.lu * 1000 > start)).toBe(true);
    expect(res.result["climate.living_room_thermostat"]).toBeUndefined();
    const climate = await cmd("history/history_during_period", { ...day, entity_ids: ["climate.living_room_thermostat"], no_attributes: true });
    expect(climate.result["climate.living_room_thermostat"][0].a.hvac_modes).toBeDefined();
  });
});

describe("logbook, statistics and the system log", () => {
  it("lists state changes oldest first in HA's shape, without names, leaving out continuous sensors even when asked", async () => {
    const all = (await cmd("logbook/get_events", day)).result as Record<string, unknown>[];
    expect(all.length).toBeGreaterThan(50);
    for (let i = 1; i < all.length; i++) expect(all[i]!.when).toBeGreaterThanOrEqual(all[i - 1]!.when as number);
    const allowed = ["when", "state", "entity_id", "icon", "context_user_id", "context_event_type", "context_domain", "context_service"];
    for (const e of all) expect(Object.keys(e).filter((k) => !allowed.includes(k))).toEqual([]);
    const pump = all.find((e) => e.entity_id === "switch.garden_fountain_pump" && e.state === "unavailable");
    expect(pump).toEqual({ when: expect.any(Number), state: "unavailable", entity_id: "switch.garden_fountain_pump" });
    const continuous = (id: string) => {
      const s = sim.home.getState(id);
      return id.startsWith("counter.") || (id.startsWith("sensor.") && s !== undefined && ("unit_of_measurement" in s.attributes || "state_class" in s.attributes));
    };
    expect(all.filter((e) => continuous(e.entity_id as string)).map((e) => e.entity_id)).toEqual([]);
    for (const id of ["sensor.kitchen_temperature", "sensor.kitchen_coffee_machine_energy"]) {
      expect((await cmd("logbook/get_events", { ...day, entity_ids: [id] })).result, id).toEqual([]);
    }
    // HA matches device_ids against events naming the device, not its entities' states.
    const device = sim.home.getState("switch.garden_fountain_pump") && [...(await cmd("config/entity_registry/list")).result].find((e: { entity_id: string }) => e.entity_id === "switch.garden_fountain_pump").device_id;
    expect((await cmd("logbook/get_events", { ...day, device_ids: [device] })).result).toEqual([]);
  });

  it("says which user and service caused a live change", async () => {
    clock.advance(1000);
    await cmd("call_service", { domain: "light", service: "turn_on", target: { entity_id: "light.kitchen_ceiling" } });
    const [entry] = (await cmd("logbook/get_events", { start_time: iso(NOW), end_time: iso(NOW + 5000), entity_ids: ["light.kitchen_ceiling"] })).result;
    expect(entry).toMatchObject({
      entity_id: "light.kitchen_ceiling", state: "on", when: (NOW + 1000) / 1000, context_user_id: expect.any(String),
      context_event_type: "call_service", context_domain: "light", context_service: "turn_on",
    });
  });

  it("computes hourly mean/min/max for measurements and sums for totals", async () => {
    const res = await cmd("recorder/statistics_during_period", {
      ...day, period: "hour", statistic_ids: ["sensor.kitchen_temperature", "sensor.kitchen_coffee_machine_energy"],
    });
    const temp = res.result["sensor.kitchen_temperature"] as { start: number; end: number; mean: number; min: number; max: number }[];
    expect(temp.length).toBe(24);
    for (const r of temp) {
      expect(r.end - r.start).toBe(3_600_000);
      expect(r.mean).toBeGreaterThanOrEqual(r.min - 1e-9);
      expect(r.mean).toBeLessThanOrEqual(r.max + 1e-9);
    }
    const energy = res.result["sensor.kitchen_coffee_machine_energy"] as { sum: number; state: number }[];
    expect(energy.at(-1)!.sum).toBeGreaterThan(0);
    const typed = await cmd("recorder/statistics_during_period", { ...day, period: "day", statistic_ids: ["sensor.kitchen_temperature"], types: ["max"] });
    expect(Object.keys(typed.result["sensor.kitchen_temperature"][0]).sort()).toEqual(["end", "max", "start"]);
  });

  it("answers every requested type, null where a statistic has none, and buckets by local calendar year", async () => {
    const ids = ["sensor.kitchen_temperature", "sensor.kitchen_coffee_machine_energy"];
    const all = (await cmd("recorder/statistics_during_period", { ...day, period: "hour", statistic_ids: ids })).result;
    const keys = ["change", "end", "last_reset", "max", "mean", "min", "start", "state", "sum"];
    for (const id of ids) for (const row of all[id]) expect(Object.keys(row).sort(), id).toEqual(keys);
    expect(all["sensor.kitchen_temperature"][0]).toMatchObject({ sum: null, state: null, change: null, last_reset: null });
    expect(all["sensor.kitchen_coffee_machine_energy"][0]).toMatchObject({ mean: null, min: null, max: null });

    const yearly = (await cmd("recorder/statistics_during_period", { ...day, period: "year", statistic_ids: ids, types: ["last_reset", "sum"] })).result;
    // The demo house keeps Amsterdam time: the year starts at local midnight, 23:00 UTC.
    expect(yearly["sensor.kitchen_coffee_machine_energy"]).toEqual([{ start: Date.UTC(2025, 11, 31, 23), end: Date.UTC(2026, 11, 31, 23), last_reset: null, sum: expect.any(Number) }]);
    expect((await cmd("recorder/statistics_during_period", { ...day, period: "decade", statistic_ids: ids })).error).toMatchObject({ code: "invalid_format" });

    const reset = "2026-11-01T00:00:00+00:00";
    sim.home.addEntity({ entity_id: "sensor.gas_meter", state: "10.5", attributes: { state_class: "total", unit_of_measurement: "m³", last_reset: reset } });
    // HA compiles an hour's statistics once the hour is over.
    const gasQuery = { start_time: iso(NOW), end_time: iso(NOW + 2 * 3_600_000), period: "hour", statistic_ids: ["sensor.gas_meter"], types: ["last_reset", "state"] };
    expect((await cmd("recorder/statistics_during_period", gasQuery)).result).toEqual({});
    clock.advance(2 * 3_600_000);
    const gas = (await cmd("recorder/statistics_during_period", gasQuery)).result;
    expect(gas["sensor.gas_meter"]).toEqual([
      { start: NOW, end: NOW + 3_600_000, last_reset: Date.parse(reset), state: 10.5 },
      { start: NOW + 3_600_000, end: NOW + 7_200_000, last_reset: Date.parse(reset), state: 10.5 },
    ]);
  });

  it("lists system log entries tied to real entities", async () => {
    const log = (await cmd("system_log/list")).result as { name: string; message: string[]; count: number; level: string; source: [string, number] }[];
    expect(log.length).toBeGreaterThanOrEqual(5);
    const zha = log.find((e) => e.message.join(" ").includes("switch.garden_fountain_pump"));
    expect(zha).toMatchObject({ name: expect.stringContaining("zha"), count: expect.any(Number) });
    expect(log.some((e) => e.name.includes("ecobee") && e.level === "ERROR")).toBe(true);
  });
});

describe("render_template", () => {
  it("answers with a result, then an event, and re-renders when a read entity changes", async () => {
    const sub = await cmd("render_template", { template: "{{ states('sensor.kitchen_temperature') | float + 1 }}" });
    expect(sub).toMatchObject({ success: true, result: null });
    const first = await c.until((m) => m.id === sub.id && m.type === "event");
    const current = Number(sim.home.getState("sensor.kitchen_temperature")!.state);
    expect(first.event.result).toBeCloseTo(current + 1);
    expect(first.event.listeners.entities).toEqual(["sensor.kitchen_temperature"]);
    sim.home.setState("sensor.kitchen_temperature", "30");
    expect((await c.until((m) => m.id === sub.id && m.type === "event")).event.result).toBe(31);
  });

  it("sends a re-render error as an event when report_errors is set", async () => {
    const sub = await cmd("render_template", { template: "{{ states('sensor.kitchen_temperature') | float + 1 }}", report_errors: true });
    await c.until((m) => m.id === sub.id && m.type === "event");
    sim.home.setState("sensor.kitchen_temperature", "unavailable");
    const failed = await c.until((m) => m.id === sub.id && m.type === "event");
    expect(failed.event).toEqual({ error: expect.stringContaining("float"), level: "ERROR" });
  });

  it("renders text with several expressions; a broken template does not fail the command, it sends an error event", async () => {
    const ok = await cmd("render_template", { template: "Lock is {{ states('lock.front_door') }} and {{ is_state('lock.front_door', 'locked') }}" });
    expect((await c.until((m) => m.id === ok.id && m.type === "event")).event.result).toBe("Lock is locked and True");
    const broken = await cmd("render_template", { template: "{{ 1 + }}", report_errors: true });
    expect(broken).toMatchObject({ success: true, result: null });
    expect((await c.until((m) => m.id === broken.id && m.type === "event")).event).toEqual({ error: expect.stringContaining("TemplateSyntaxError"), level: "ERROR" });
  });
});
