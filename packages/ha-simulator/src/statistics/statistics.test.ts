import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "../common/index.js";
import { demoHouse } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";
import { sunElevation } from "../sun.js";
import { RawClient } from "../../test/support/raw-client.js";

// Wednesday 2026-11-25, 12:30 in Amsterdam.
const NOW = Date.UTC(2026, 10, 25, 11, 30);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const AMSTERDAM = { latitude: 52.3731, longitude: 4.8922 };
let sim: Simulator;
let c: RawClient;
let nextId = 1;

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse({ nowMs: NOW }), clock: manualClock(NOW), users: [{ id: "kid", name: "Kid", isAdmin: false, tokens: ["kid-token"] }] });
  // Statistics and energy are open to every user: a non-admin asks.
  c = await RawClient.authed(sim.wsUrl, "kid-token");
  nextId = 1;
});

afterEach(async () => {
  c.close();
  await sim.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const cmd = (type: string, extra: Record<string, unknown> = {}): Promise<any> => c.command({ id: nextId++, type, ...extra });
type Row = { start: number; end: number; sum?: number; change?: number; state?: number; mean?: number | null; min?: number | null; max?: number | null };
const stats = async (extra: Record<string, unknown>): Promise<Record<string, Row[]>> => (await cmd("recorder/statistics_during_period", extra)).result;

describe("energy preferences", () => {
  it("use the grid-connection format with import and export meters, and list devices, for every user", async () => {
    const prefs = (await cmd("energy/get_prefs")).result;
    const grid = prefs.energy_sources.find((s: { type: string }) => s.type === "grid");
    expect(grid).toMatchObject({ stat_energy_from: "sensor.p1_meter_energy_import", stat_energy_to: "sensor.p1_meter_energy_export", cost_adjustment_day: 0 });
    expect(grid).not.toHaveProperty("flow_from");
    expect(prefs.energy_sources.map((s: { type: string }) => s.type)).toEqual(["grid", "solar", "battery", "gas", "water"]);
    expect(prefs.device_consumption[0]).toEqual({ stat_consumption: "sensor.heat_pump_energy", stat_rate: "sensor.heat_pump_power", name: "Heat pump" });
    for (const id of [...prefs.energy_sources.flatMap((s: Record<string, unknown>) => [s.stat_energy_from, s.stat_energy_to]), ...prefs.device_consumption.map((d: { stat_consumption: string }) => d.stat_consumption)]) {
      if (typeof id === "string") expect(sim.home.getState(id), id).toBeDefined();
    }
  });

  it("are not_found 'No prefs' where the Energy dashboard was never set up", async () => {
    const bare = await startSimulator({ house: { ...demoHouse({ nowMs: NOW }), energy: undefined } });
    const b = await RawClient.authed(bare.wsUrl, bare.users.tokenFor());
    try {
      expect((await b.command({ id: 1, type: "energy/get_prefs" })).error).toEqual({ code: "not_found", message: "No prefs" });
    } finally {
      b.close();
      await bare.close();
    }
  });
});

describe("long-term statistics of the demo's meters", () => {
  it("hold 30 days of hourly rows whose sums only grow, whose changes are the sums' differences, and whose states agree with the sensor", async () => {
    const ids = ["sensor.p1_meter_energy_import", "sensor.solar_lifetime_energy", "sensor.p1_meter_total_gas", "sensor.heat_pump_energy"];
    const rows = await stats({ start_time: iso(NOW - 30 * 86_400_000), statistic_ids: ids, period: "hour", types: ["sum", "change", "state"] });
    for (const id of ids) {
      const r = rows[id]!;
      expect(r.length, id).toBeGreaterThanOrEqual(30 * 24 - 1);
      expect(r.at(-1)!.end, id).toBeLessThanOrEqual(NOW);
      for (let i = 1; i < r.length; i++) {
        expect(r[i]!.start - r[i - 1]!.start).toBe(HOUR);
        expect(r[i]!.sum!).toBeGreaterThanOrEqual(r[i - 1]!.sum!);
        expect(r[i]!.change!).toBeCloseTo(r[i]!.sum! - r[i - 1]!.sum!, 9);
      }
    }
    // The sensor's reading at the end of the last whole hour is what the statistics say.
    const last = rows["sensor.p1_meter_energy_import"]!.at(-1)!;
    expect(Number(sim.home.getState("sensor.p1_meter_energy_import")!.state)).toBeCloseTo(last.state!, 0);
  });

  it("read the same in the history as in the statistics: a meter's states only grow and end at its current state", async () => {
    const rows = (await cmd("history/history_during_period", { start_time: iso(NOW - 24 * HOUR), entity_ids: ["sensor.p1_meter_energy_import"], minimal_response: true, no_attributes: true })).result["sensor.p1_meter_energy_import"] as { s: string; lu: number }[];
    expect(rows.length).toBeGreaterThan(40);
    for (let i = 1; i < rows.length; i++) expect(Number(rows[i]!.s)).toBeGreaterThanOrEqual(Number(rows[i - 1]!.s));
    expect(rows.at(-1)!.s).toBe(sim.home.getState("sensor.p1_meter_energy_import")!.state);
    const hourly = (await stats({ start_time: iso(NOW - 3 * HOUR), statistic_ids: ["sensor.p1_meter_energy_import"], period: "hour", types: ["state"] }))["sensor.p1_meter_energy_import"]!;
    const atEnd = rows.filter((r) => r.lu * 1000 <= hourly[0]!.end).at(-1)!;
    expect(Number(atEnd.s)).toBeCloseTo(hourly[0]!.state!, 1);
  });

  it("make no solar energy while the sun is down", async () => {
    const rows = (await stats({ start_time: iso(NOW - 7 * 86_400_000), statistic_ids: ["sensor.solar_lifetime_energy"], period: "hour", types: ["change"] }))["sensor.solar_lifetime_energy"]!;
    const night = rows.filter((r) => [0, 15, 30, 45].every((m) => sunElevation(r.start + m * 60_000, AMSTERDAM.latitude, AMSTERDAM.longitude) < -1));
    const day = rows.filter((r) => sunElevation(r.start + HOUR / 2, AMSTERDAM.latitude, AMSTERDAM.longitude) > 10);
    expect(night.length).toBeGreaterThan(80);
    expect(night.every((r) => r.change === 0)).toBe(true);
    expect(day.some((r) => r.change! > 0)).toBe(true);
  });

  it("count days, weeks (from Monday) and months from local midnight in Amsterdam, widening the period as HA does", async () => {
    const start = iso(Date.UTC(2026, 10, 18, 12)); // a Wednesday afternoon
    const days = (await stats({ start_time: start, statistic_ids: ["sensor.p1_meter_energy_import"], period: "day", types: ["change"] }))["sensor.p1_meter_energy_import"]!;
    expect(days[0]!.start).toBe(Date.UTC(2026, 10, 17, 23));
    expect(days.map((d) => d.end - d.start).every((ms) => ms === 86_400_000)).toBe(true);
    const hourly = (await stats({ start_time: iso(Date.UTC(2026, 10, 17, 23)), end_time: iso(Date.UTC(2026, 10, 18, 23)), statistic_ids: ["sensor.p1_meter_energy_import"], period: "hour", types: ["change"] }))["sensor.p1_meter_energy_import"]!;
    expect(days[0]!.change).toBeCloseTo(hourly.reduce((a, r) => a + r.change!, 0), 6);

    const weeks = (await stats({ start_time: start, statistic_ids: ["sensor.p1_meter_energy_import"], period: "week", types: ["change"] }))["sensor.p1_meter_energy_import"]!;
    expect(weeks[0]!.start).toBe(Date.UTC(2026, 10, 15, 23)); // Monday 16 November, local midnight
    expect(weeks[0]!.end).toBe(Date.UTC(2026, 10, 22, 23));
    const months = (await stats({ start_time: start, statistic_ids: ["sensor.p1_meter_energy_import"], period: "month", types: ["sum"] }))["sensor.p1_meter_energy_import"]!;
    expect(months[0]!.start).toBe(Date.UTC(2026, 9, 31, 23));
  });

  it("convert a meter counting in Wh to the unit asked for, and keep the sensor's unit otherwise", async () => {
    const q = { start_time: iso(NOW - 2 * 86_400_000), statistic_ids: ["sensor.heat_pump_energy"], period: "day", types: ["change", "state"] };
    const wh = (await stats(q))["sensor.heat_pump_energy"]!;
    const kwh = (await stats({ ...q, units: { energy: "kWh" } }))["sensor.heat_pump_energy"]!;
    expect(kwh[0]!.change!).toBeCloseTo(wh[0]!.change! / 1000, 6);
    expect(kwh[0]!.state!).toBeCloseTo(wh[0]!.state! / 1000, 6);
    expect((await cmd("recorder/statistics_during_period", { ...q, units: { energy: "furlongs" } })).error.code).toBe("invalid_format");
  });

  it("answer measurements with mean, min and max only, and leave out types no requested statistic has", async () => {
    const temp = await stats({ start_time: iso(NOW - 20 * 86_400_000), statistic_ids: ["sensor.kitchen_temperature"], period: "day" });
    const row = temp["sensor.kitchen_temperature"]![0]!;
    expect(Object.keys(row).sort()).toEqual(["end", "last_reset", "max", "mean", "min", "start"]);
    expect(row.min!).toBeLessThanOrEqual(row.mean!);
    expect(row.mean!).toBeLessThanOrEqual(row.max!);
    expect(temp["sensor.kitchen_temperature"]!.length).toBeGreaterThanOrEqual(20);
    const mixed = await stats({ start_time: iso(NOW - 2 * 86_400_000), statistic_ids: ["sensor.kitchen_temperature", "sensor.dryer_energy"], period: "day", types: ["mean", "change"] });
    expect(mixed["sensor.kitchen_temperature"]![0]).toMatchObject({ change: null });
    expect(mixed["sensor.dryer_energy"]![0]).toMatchObject({ mean: null, change: expect.any(Number) });
  });

  it("refuse what HA refuses: no statistic ids, an unknown period, a bad start", async () => {
    expect((await cmd("recorder/statistics_during_period", { start_time: iso(NOW), statistic_ids: [], period: "hour" })).error).toEqual({
      code: "invalid_format", message: "length of value must be at least 1 for dictionary value @ data['statistic_ids']. Got []",
    });
    expect((await cmd("recorder/statistics_during_period", { start_time: iso(NOW), period: "hour" })).error.message).toBe("required key not provided @ data['statistic_ids']. Got None");
    expect((await cmd("recorder/statistics_during_period", { start_time: iso(NOW), statistic_ids: ["x"], period: "fortnight" })).error.code).toBe("invalid_format");
    expect((await cmd("recorder/statistics_during_period", { start_time: "yesterday", statistic_ids: ["x"], period: "hour" })).error).toEqual({ code: "invalid_start_time", message: "Invalid start_time" });
    expect(await stats({ start_time: iso(NOW), statistic_ids: ["sensor.nope"], period: "hour" })).toEqual({});
  });
});

describe("statistics metadata", () => {
  it("describes each statistic as HA's recorder does, with the statistics unit and the unit it is shown in", async () => {
    const meta = (await cmd("recorder/get_statistics_metadata", { statistic_ids: ["sensor.heat_pump_energy", "sensor.kitchen_temperature", "sensor.nope", "light.kitchen_ceiling"] })).result;
    expect(meta).toEqual([
      { statistic_id: "sensor.heat_pump_energy", display_unit_of_measurement: "Wh", has_mean: false, mean_type: 0, has_sum: true, name: null, source: "recorder", statistics_unit_of_measurement: "Wh", unit_class: "energy" },
      { statistic_id: "sensor.kitchen_temperature", display_unit_of_measurement: "°C", has_mean: true, mean_type: 1, has_sum: false, name: null, source: "recorder", statistics_unit_of_measurement: "°C", unit_class: "temperature" },
    ]);
    const sums = (await cmd("recorder/list_statistic_ids", { statistic_type: "sum" })).result as { statistic_id: string; has_sum: boolean }[];
    expect(sums.every((s) => s.has_sum)).toBe(true);
    expect(sums.map((s) => s.statistic_id)).toEqual(expect.arrayContaining(["sensor.p1_meter_energy_import", "sensor.water_meter_total_water_usage"]));
    const all = (await cmd("recorder/get_statistics_metadata")).result as unknown[];
    expect(all.length).toBeGreaterThan(sums.length);
  });

  it("names the unit class HA's converters give a unit: minutes are a duration, percentages and no unit at all are unitless", async () => {
    const meta = (await cmd("recorder/get_statistics_metadata")).result as { statistic_id: string; statistics_unit_of_measurement: string | null; unit_class: string | null }[];
    const classOf = (unit: string | null) => new Set(meta.filter((m) => m.statistics_unit_of_measurement === unit).map((m) => m.unit_class));
    expect(classOf("min")).toEqual(new Set(["duration"]));
    expect(classOf("%")).toEqual(new Set(["unitless"]));
    expect(classOf(null)).toEqual(new Set(["unitless"]));
    expect(classOf("hPa")).toEqual(new Set(["pressure"]));
    expect(classOf("dBm")).toEqual(new Set([null]));
    const runTime = meta.find((m) => m.statistics_unit_of_measurement === "min")!.statistic_id;
    const q = { start_time: iso(NOW - 2 * 86_400_000), statistic_ids: [runTime], period: "day", types: ["state"] };
    const minutes = (await stats(q))[runTime]!;
    const hours = (await stats({ ...q, units: { duration: "h" } }))[runTime]!;
    expect(hours[0]!.state!).toBeCloseTo(minutes[0]!.state! / 60, 6);
    expect((await cmd("recorder/statistics_during_period", { ...q, units: { pressure: "atm" } })).error.message).toMatch(/^value must be one of \['Pa', 'bar', 'cbar', 'hPa', /);
  });
});
