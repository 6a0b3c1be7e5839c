import { describe, expect, it } from "vitest";
import { addLocalDays, localParts, startOfLocalDay } from "../common/index.js";
import { demoHouse } from "../demo/index.js";
import { EnergyMeters } from "./meters.js";

const ZONE = "Europe/Amsterdam";
const HOUR = 3_600_000;
const CHARGE = "sensor.home_battery_energy_import";
const DISCHARGE = "sensor.home_battery_energy_export";
const SOLAR = "sensor.solar_lifetime_energy";
const CAPACITY = 5;

/** The demo house's meters, started at `now`, and its last `days` whole local days, oldest first. */
function lastDays(now: number, days: number) {
  const meters = new EnergyMeters(demoHouse({ nowMs: now }), now);
  const today = startOfLocalDay(now, ZONE);
  const starts = Array.from({ length: days }, (_, i) => addLocalDays(today, ZONE, i - days));
  const day = (id: string, start: number) => meters.between(id, start, addLocalDays(start, ZONE, 1));
  return { meters, starts, day };
}

const kwh = (n: number) => Math.round(n * 1000) / 1000;

describe("the simulated home battery", () => {
  it("stores and gives back different amounts from day to day, as the sun and the home's use vary", () => {
    // A month of late autumn (on dull days there is no surplus to store), and a week of spring.
    for (const [now, days] of [[Date.parse("2026-12-07T22:44:00+01:00"), 30], [Date.parse("2026-05-14T12:00:00+02:00"), 6]] as const) {
      const { starts, day } = lastDays(now, days);
      const charged = starts.map((s) => kwh(day(CHARGE, s)));
      const discharged = starts.map((s) => kwh(day(DISCHARGE, s)));
      expect(new Set(discharged).size, `given back per day: ${discharged.join(", ")}`).toBeGreaterThan(2);
      expect(charged.reduce((a, b) => a + b), `stored per day: ${charged.join(", ")}`).toBeGreaterThan(0);
      expect(new Set(charged).size, `stored per day: ${charged.join(", ")}`).toBeGreaterThan(2);
      // What it gives back is what it stored, less what is lost on the way in and what it still holds.
      const [stored, given] = [charged.reduce((a, b) => a + b), discharged.reduce((a, b) => a + b)];
      expect(given).toBeLessThanOrEqual(stored * 0.95 + CAPACITY / 3 + 0.01);
      expect(given).toBeGreaterThanOrEqual(stored * 0.95 - CAPACITY);
    }
  });

  it("charges only from solar surplus by day, and discharges only in the evening", () => {
    const now = Date.parse("2026-05-14T12:00:00+02:00");
    const { meters, starts } = lastDays(now, 5);
    const first = Math.round((starts[0]! - meters.startMs) / HOUR);
    for (let i = first; i < first + 5 * 24; i++) {
      const hour = localParts(meters.startMs + i * HOUR, ZONE).hour;
      const [charge, discharge, solar] = [meters.hour(CHARGE, i), meters.hour(DISCHARGE, i), meters.hour(SOLAR, i)];
      if (charge > 0) {
        expect(solar, `hour ${hour}: charged ${charge} kWh from ${solar} kWh of sun`).toBeGreaterThanOrEqual(charge);
        expect(meters.hour("sensor.p1_meter_energy_import", i), `hour ${hour}: charged while the home took from the grid`).toBe(0);
      }
      if (discharge > 0) expect(hour, `gave back ${discharge} kWh at ${hour}:00`).toBeGreaterThanOrEqual(17);
      expect(charge > 0 && discharge > 0).toBe(false);
    }
  });

  it("never gives back more than it stored, nor holds more than its capacity, over a month", () => {
    const now = Date.parse("2026-05-14T12:00:00+02:00");
    const { meters } = lastDays(now, 1);
    let soc = CAPACITY / 3;
    for (let i = 0; meters.startMs + i * HOUR < now - HOUR; i++) {
      soc += meters.hour(CHARGE, i) * 0.95 - meters.hour(DISCHARGE, i);
      expect(soc).toBeGreaterThanOrEqual(CAPACITY * 0.1 - 1e-9);
      expect(soc).toBeLessThanOrEqual(CAPACITY + 1e-9);
    }
  });
});
