import { manualClock } from "../../src/shared/index.js";
import { haStyleToken, parseHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { startStack, type Stack } from "../support/stack.js";

/**
 * A small house in Amsterdam whose past is written out, so every duration,
 * mean and total the time tools report can be worked out by hand. The clock
 * stands still on Wednesday 28 October 2026, 14:30 CET: three days after
 * the clocks went back (Sunday 25 October had 25 hours), two days into the
 * week that began on Monday 26 October.
 */
export const NOW = Date.parse("2026-10-28T14:30:00+01:00");
export const ZONE = "Europe/Amsterdam";

/** A person who is not an administrator of Home Assistant. */
export const MEMBER = { id: "9d0c1d2e3a4b4c6d8e9f0a1b2c3d4e5f", name: "Sam", isAdmin: false, tokens: [haStyleToken("sam-time")] };

const total = (unit: string, deviceClass: string) => ({ unit_of_measurement: unit, state_class: "total_increasing", device_class: deviceClass });

/** A meter's readings: [ISO time, reading]; the last one is its state now. */
function meter(entityId: string, name: string, attributes: Record<string, unknown>, readings: [string, number][]) {
  return {
    entity: { entity_id: entityId, state: String(readings.at(-1)![1]), attributes: { friendly_name: name, ...attributes }, registry: { platform: "template" } },
    history: { entity_id: entityId, changes: readings.map(([at, v]) => ({ at, state: String(v) })) },
  };
}

const METERS = [
  // Monday 26 October 00:00 CET is 25 October 23:00 UTC: the week's import is 1042.5 - 1015.
  meter("sensor.grid_import", "Grid import", total("kWh", "energy"), [["2026-10-18T10:00:00Z", 1000], ["2026-10-25T06:00:00Z", 1010], ["2026-10-25T22:30:00Z", 1015], ["2026-10-27T11:00:00Z", 1030], ["2026-10-28T08:00:00Z", 1042.5]]),
  meter("sensor.grid_export", "Grid export", total("kWh", "energy"), [["2026-10-18T10:00:00Z", 500], ["2026-10-26T12:00:00Z", 504], ["2026-10-28T11:00:00Z", 506.1]]),
  meter("sensor.solar_energy", "Solar", total("kWh", "energy"), [["2026-10-18T10:00:00Z", 200], ["2026-10-26T14:00:00Z", 205], ["2026-10-28T12:30:00Z", 207.4]]),
  meter("sensor.battery_in", "Battery in", total("kWh", "energy"), [["2026-10-18T10:00:00Z", 50], ["2026-10-27T12:00:00Z", 52]]),
  meter("sensor.battery_out", "Battery out", total("kWh", "energy"), [["2026-10-18T10:00:00Z", 40], ["2026-10-27T20:00:00Z", 41.5]]),
  // An energy monitor that counts in Wh, as many ESPHome ones do.
  meter("sensor.heat_pump_energy", "Heat pump energy", total("Wh", "energy"), [["2026-10-18T10:00:00Z", 2_000_000], ["2026-10-25T20:00:00Z", 2_004_000], ["2026-10-27T06:00:00Z", 2_016_500]]),
  meter("sensor.dryer_energy", "Dryer energy", total("kWh", "energy"), [["2026-10-18T10:00:00Z", 10], ["2026-10-27T15:00:00Z", 13.2]]),
  meter("sensor.gas_meter", "Gas meter", total("m³", "gas"), [["2026-10-18T10:00:00Z", 3000], ["2026-10-27T07:00:00Z", 3004.25]]),
  meter("sensor.water_meter", "Water meter", total("L", "water"), [["2026-10-18T10:00:00Z", 100_000], ["2026-10-27T07:00:00Z", 100_350]]),
];

/** The Energy dashboard as HA 2026 stores it: a grid connection with its own import and export meters. */
export const PREFS = {
  energy_sources: [
    { type: "grid", stat_energy_from: "sensor.grid_import", stat_energy_to: "sensor.grid_export", stat_cost: null, entity_energy_price: null, number_energy_price: null, stat_compensation: null, entity_energy_price_export: null, number_energy_price_export: null, cost_adjustment_day: 0 },
    { type: "solar", stat_energy_from: "sensor.solar_energy", config_entry_solar_forecast: null },
    { type: "battery", stat_energy_from: "sensor.battery_out", stat_energy_to: "sensor.battery_in" },
    { type: "gas", stat_energy_from: "sensor.gas_meter", stat_cost: null, entity_energy_price: null, number_energy_price: null },
    { type: "water", stat_energy_from: "sensor.water_meter", stat_cost: null, entity_energy_price: null, number_energy_price: null },
  ],
  device_consumption: [{ stat_consumption: "sensor.heat_pump_energy", name: "Heat pump" }, { stat_consumption: "sensor.dryer_energy" }],
  device_consumption_water: [],
};

/** The same dashboard as an install from before storage minor version 3 keeps it: one grid source with flow lists. */
export const LEGACY_PREFS = {
  ...PREFS,
  energy_sources: [
    { type: "grid", flow_from: [{ stat_energy_from: "sensor.grid_import", stat_cost: null, entity_energy_price: null, number_energy_price: null }], flow_to: [{ stat_energy_to: "sensor.grid_export", stat_compensation: null, entity_energy_price: null, number_energy_price: null }], cost_adjustment_day: 0 },
    ...PREFS.energy_sources.slice(1),
  ],
};

export function timeHouse() {
  return parseHouse({
    name: "Time House",
    config: { location_name: "Time House", time_zone: ZONE, latitude: 52.37, longitude: 4.89, country: "NL" },
    areas: [{ area_id: "hall", name: "Hall" }, { area_id: "garden", name: "Garden" }],
    entities: [
      { entity_id: "light.hall_light", state: "on", attributes: { friendly_name: "Hall light" }, registry: { platform: "hue", area_id: "hall" } },
      { entity_id: "sensor.hall_temperature", state: "19.5", attributes: { friendly_name: "Hall temperature", unit_of_measurement: "°C", state_class: "measurement", device_class: "temperature" }, registry: { platform: "zha", area_id: "hall" } },
      { entity_id: "sensor.outdoor_temperature", state: "8", attributes: { friendly_name: "Outdoor temperature", unit_of_measurement: "°C", state_class: "measurement", device_class: "temperature" }, registry: { platform: "met", area_id: "garden" } },
      ...METERS.map((m) => m.entity),
    ],
    history: {
      scripted: [
        {
          // Yesterday (27 October, CET): on 07:00–07:30 and 18:00–20:42, 3 h 12 min in all, four changes.
          entity_id: "light.hall_light",
          changes: [
            { at: "2026-10-20T08:00:00+02:00", state: "off" },
            { at: "2026-10-27T07:00:00+01:00", state: "on" },
            { at: "2026-10-27T07:30:00+01:00", state: "off" },
            { at: "2026-10-27T18:00:00+01:00", state: "on" },
            { at: "2026-10-27T20:42:00+01:00", state: "off" },
            { at: "2026-10-28T07:15:00+01:00", state: "on" },
            { at: "2026-10-28T08:00:00+01:00", state: "off" },
            { at: "2026-10-28T13:00:00+01:00", state: "on" },
          ],
        },
        {
          // Yesterday: 19 from midnight, 21 from 06:00, 22 from 12:00, 20 from 18:00: a mean of 20.5.
          entity_id: "sensor.hall_temperature",
          changes: [
            { at: "2026-10-26T20:00:00+01:00", state: "19" },
            { at: "2026-10-27T06:00:00+01:00", state: "21" },
            { at: "2026-10-27T12:00:00+01:00", state: "22" },
            { at: "2026-10-27T18:00:00+01:00", state: "20" },
            { at: "2026-10-28T06:00:00+01:00", state: "19.5" },
          ],
        },
        {
          // Older than the ten days of state history HA keeps: 10 °C until 12 October 14:00 CEST, then 14.
          entity_id: "sensor.outdoor_temperature",
          changes: [
            { at: "2026-10-09T12:00:00Z", state: "10" },
            { at: "2026-10-12T12:00:00Z", state: "14" },
            { at: "2026-10-27T09:00:00Z", state: "8" },
          ],
        },
        ...METERS.map((m) => m.history),
      ],
    },
    energy: { prefs: PREFS, meters: [] },
  });
}

/** The program against the time house, on the standing clock, with a client that has listed the tools; and a non-admin. */
export async function startTimeStack(): Promise<{ stack: Stack; sim: Simulator; house: ReturnType<typeof timeHouse> }> {
  const clock = manualClock(NOW);
  const house = timeHouse();
  const sim = await startSimulator({ house, clock });
  sim.users.add(MEMBER);
  const stack = await startStack({ sim, clock });
  // From here the MCP client checks every structured result against the tool's output schema.
  await stack.client.listTools();
  return { stack, sim, house };
}
