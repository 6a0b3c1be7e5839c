import type { HouseInput } from "../house-schema.js";
import { firmware, power } from "./entity-kits.js";
import { around, type DeviceModel } from "./spec.js";

/**
 * The demo house's energy: a P1 meter (grid import and export, gas), solar
 * panels, a plug-in battery, a water meter, and metered devices, with the
 * preferences of its Energy dashboard as HA 2026 stores them (storage minor
 * version 3: each grid connection names its import and export meters).
 */

const totalEnergy = (unit: string) => ({ state_class: "total_increasing", unit_of_measurement: unit });

/** Device models that exist for the energy dashboard; placed in `rooms.ts`. */
export const ENERGY_MODELS = new Map<string, DeviceModel>(Object.entries({
  homewizard_battery: {
    integration: "homewizard", manufacturer: "HomeWizard", model: "Plug-In Battery", modelId: "HWE-BAT", swVersion: "1.06",
    connection: "mac", labels: ["energy"],
    entities: [
      { ...power, key: "power", name: "Power", state: around(-300, 600, 0) },
      { domain: "sensor", key: "energy_import", name: "Energy import", state: around(612, 30, 3), deviceClass: "energy", attributes: totalEnergy("kWh"), labels: ["energy"] },
      { domain: "sensor", key: "energy_export", name: "Energy export", state: around(548, 30, 3), deviceClass: "energy", attributes: totalEnergy("kWh"), labels: ["energy"] },
      { domain: "sensor", key: "state_of_charge", name: "State of charge", state: around(55, 30, 0), deviceClass: "battery", attributes: { state_class: "measurement", unit_of_measurement: "%" } },
    ],
  },
  homewizard_water: {
    integration: "homewizard", manufacturer: "HomeWizard", model: "Wi-Fi Watermeter", modelId: "HWE-WTR", swVersion: "2.03",
    connection: "mac", labels: ["energy"],
    entities: [
      { domain: "sensor", key: "total_water_usage", name: "Total water usage", state: around(1284.5, 40, 3), deviceClass: "water", attributes: totalEnergy("m³"), labels: ["energy"] },
      { domain: "sensor", key: "active_water_usage", name: "Active water usage", state: "0", icon: "mdi:water", attributes: { state_class: "measurement", unit_of_measurement: "L/min" } },
    ],
  },
  // ESPHome energy monitors commonly count in Wh; HA converts to kWh where asked.
  esphome_heat_pump: {
    integration: "esphome", manufacturer: "Espressif", model: "ESP32-C3 energy monitor", modelId: "esp32-c3-devkitm-1", swVersion: "2026.10.2",
    connection: "mac", labels: ["energy", "climate"],
    entities: [
      { ...power, key: "power", name: "Power", state: around(420, 300, 1) },
      { domain: "sensor", key: "energy", name: "Energy", state: around(2_840_150, 20_000, 0), deviceClass: "energy", attributes: totalEnergy("Wh"), labels: ["energy"] },
      firmware("2026.10.2"),
    ],
  },
}));

/** The Energy dashboard's preferences (`energy/data.py`), as `energy/get_prefs` answers them. */
export const DEMO_ENERGY_PREFS = {
  energy_sources: [
    {
      type: "grid",
      stat_energy_from: "sensor.p1_meter_energy_import",
      stat_energy_to: "sensor.p1_meter_energy_export",
      stat_cost: null,
      entity_energy_price: null,
      number_energy_price: 0.28,
      stat_compensation: null,
      entity_energy_price_export: null,
      number_energy_price_export: 0.07,
      stat_rate: "sensor.p1_meter_power",
      cost_adjustment_day: 0.0,
    },
    { type: "solar", stat_energy_from: "sensor.solar_lifetime_energy", stat_rate: "sensor.solar_current_power", config_entry_solar_forecast: null },
    { type: "battery", stat_energy_from: "sensor.home_battery_energy_export", stat_energy_to: "sensor.home_battery_energy_import", stat_rate: "sensor.home_battery_power" },
    { type: "gas", stat_energy_from: "sensor.p1_meter_total_gas", stat_cost: null, entity_energy_price: null, number_energy_price: 1.35 },
    { type: "water", stat_energy_from: "sensor.water_meter_total_water_usage", stat_cost: null, entity_energy_price: null, number_energy_price: 1.12 },
  ],
  device_consumption: [
    { stat_consumption: "sensor.heat_pump_energy", stat_rate: "sensor.heat_pump_power", name: "Heat pump" },
    { stat_consumption: "sensor.dryer_energy", stat_rate: "sensor.dryer_power" },
    { stat_consumption: "sensor.kitchen_dishwasher_energy", stat_rate: "sensor.kitchen_dishwasher_power" },
    { stat_consumption: "sensor.bathroom_towel_radiator_energy" },
    { stat_consumption: "sensor.office_desk_power_energy" },
    { stat_consumption: "sensor.kitchen_coffee_machine_energy" },
  ],
  device_consumption_water: [],
};

/** The model behind every meter: what each measures, and how much a device uses on an average day. */
export function demoEnergy(): NonNullable<HouseInput["energy"]> {
  return {
    prefs: DEMO_ENERGY_PREFS,
    days: 30,
    seed: 7,
    base_load_w: 165,
    solar_kwp: 4.4,
    battery_kwh: 5.0,
    meters: [
      { statistic_id: "sensor.p1_meter_energy_import", flow: "grid_import" },
      { statistic_id: "sensor.p1_meter_energy_export", flow: "grid_export" },
      { statistic_id: "sensor.solar_lifetime_energy", flow: "solar" },
      { statistic_id: "sensor.solar_energy_today", flow: "solar", daily_reset: true },
      { statistic_id: "sensor.home_battery_energy_import", flow: "battery_charge" },
      { statistic_id: "sensor.home_battery_energy_export", flow: "battery_discharge" },
      { statistic_id: "sensor.p1_meter_total_gas", flow: "gas" },
      { statistic_id: "sensor.water_meter_total_water_usage", flow: "water" },
      { statistic_id: "sensor.heat_pump_energy", flow: "device", kwh_per_day: 5.5, pattern: "heating" },
      { statistic_id: "sensor.dryer_energy", flow: "device", kwh_per_day: 1.4, pattern: "cycles" },
      { statistic_id: "sensor.kitchen_dishwasher_energy", flow: "device", kwh_per_day: 0.95, pattern: "cycles" },
      { statistic_id: "sensor.bathroom_towel_radiator_energy", flow: "device", kwh_per_day: 0.8, pattern: "heating" },
      { statistic_id: "sensor.office_desk_power_energy", flow: "device", kwh_per_day: 0.75, pattern: "daytime" },
      { statistic_id: "sensor.kitchen_coffee_machine_energy", flow: "device", kwh_per_day: 0.3, pattern: "morning" },
      { statistic_id: "sensor.kitchen_extractor_fan_energy", flow: "device", kwh_per_day: 0.12, pattern: "evening" },
      { statistic_id: "sensor.terrace_patio_heater_energy", flow: "device", kwh_per_day: 0.5, pattern: "evening" },
      { statistic_id: "sensor.garage_door_opener_energy", flow: "device", kwh_per_day: 0.04, pattern: "continuous" },
    ],
  };
}
