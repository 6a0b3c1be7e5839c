import { describe, expect, it } from "vitest";
import { anyMeter, electricityIds, energyMeters } from "./energy-prefs.js";

const devices = [
  { stat_consumption: "sensor.heat_pump", name: "Heat pump" },
  { stat_consumption: "sensor.compressor", included_in_stat: "sensor.heat_pump" },
];

describe("the Energy dashboard's meters, from energy/get_prefs", () => {
  it("reads grid connections in the current format, several of them, with an import or an export left out", () => {
    const m = energyMeters({
      energy_sources: [
        { type: "grid", stat_energy_from: "sensor.import_1", stat_energy_to: "sensor.export_1", cost_adjustment_day: 0 },
        { type: "grid", stat_energy_from: null, stat_energy_to: "sensor.export_2", cost_adjustment_day: 0 },
        { type: "solar", stat_energy_from: "sensor.solar", config_entry_solar_forecast: null },
        { type: "wind", stat_energy_from: "sensor.wind", config_entry_wind_forecast: null },
        { type: "battery", stat_energy_from: "sensor.battery_out", stat_energy_to: "sensor.battery_in" },
        { type: "gas", stat_energy_from: "sensor.gas" },
        { type: "water", stat_energy_from: "sensor.water" },
        { type: "tidal", stat_energy_from: "sensor.moon" },
      ],
      device_consumption: devices,
    });
    expect(m).toEqual({
      gridImport: ["sensor.import_1"],
      gridExport: ["sensor.export_1", "sensor.export_2"],
      solar: ["sensor.solar"],
      wind: ["sensor.wind"],
      batteryOut: ["sensor.battery_out"],
      batteryIn: ["sensor.battery_in"],
      gas: ["sensor.gas"],
      water: ["sensor.water"],
      devices: [
        { statisticId: "sensor.heat_pump", name: "Heat pump", includedIn: null },
        { statisticId: "sensor.compressor", name: null, includedIn: "sensor.heat_pump" },
      ],
    });
    expect(electricityIds(m)).not.toContain("sensor.gas");
  });

  it("reads the older grid format, flow_from and flow_to lists, to the same meters", () => {
    const legacy = energyMeters({
      energy_sources: [
        {
          type: "grid",
          flow_from: [{ stat_energy_from: "sensor.import_1", stat_cost: null }, { stat_energy_from: "sensor.import_2" }],
          flow_to: [{ stat_energy_to: "sensor.export_1" }],
          cost_adjustment_day: 0,
        },
      ],
      device_consumption: [],
    });
    expect(legacy.gridImport).toEqual(["sensor.import_1", "sensor.import_2"]);
    expect(legacy.gridExport).toEqual(["sensor.export_1"]);
  });

  it("says saved but empty preferences name no meter", () => {
    expect(anyMeter(energyMeters({ energy_sources: [], device_consumption: [], device_consumption_water: [] }))).toBe(false);
    expect(anyMeter(energyMeters({ energy_sources: [], device_consumption: devices }))).toBe(true);
  });
});
