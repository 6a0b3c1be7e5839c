import type { Rng } from "../random.js";
import { around, type Attributes, type EntitySpec } from "./spec.js";

/** Entity building blocks shared by many device models. */

const measurement = (unit: string): Attributes => ({ state_class: "measurement", unit_of_measurement: unit });

export const temperature: EntitySpec = {
  domain: "sensor", key: "temperature", name: "Temperature", state: around(20.5, 2), deviceClass: "temperature",
  attributes: measurement("°C"),
};
export const humidity: EntitySpec = {
  domain: "sensor", key: "humidity", name: "Humidity", state: around(48, 9, 0), deviceClass: "humidity", attributes: measurement("%"),
};
export const pressure: EntitySpec = {
  domain: "sensor", key: "pressure", name: "Pressure", state: around(1012, 8, 1), deviceClass: "atmospheric_pressure",
  attributes: measurement("hPa"),
};
export const illuminance: EntitySpec = {
  domain: "sensor", key: "illuminance", name: "Illuminance", state: around(180, 150, 0), deviceClass: "illuminance",
  attributes: measurement("lx"),
};
export const battery: EntitySpec = {
  domain: "sensor", key: "battery", name: "Battery", state: around(78, 20, 0), deviceClass: "battery", category: "diagnostic",
  attributes: measurement("%"),
};
export const rssi: EntitySpec = {
  domain: "sensor", key: "rssi", name: "RSSI", state: around(-68, 12, 0), deviceClass: "signal_strength", category: "diagnostic",
  disabledBy: "integration", attributes: measurement("dBm"),
};
export const lqi: EntitySpec = {
  domain: "sensor", key: "lqi", name: "LQI", state: around(160, 60, 0), category: "diagnostic", disabledBy: "integration",
  attributes: { state_class: "measurement" },
};
export const power: EntitySpec = {
  domain: "sensor", key: "power", name: "Power", state: around(40, 38, 1), deviceClass: "power", attributes: measurement("W"),
  labels: ["energy"],
};
export const energy: EntitySpec = {
  domain: "sensor", key: "energy", name: "Energy", state: around(120, 110, 2), deviceClass: "energy",
  attributes: { state_class: "total_increasing", unit_of_measurement: "kWh" }, labels: ["energy"],
};
export const deviceTemperature: EntitySpec = {
  domain: "sensor", key: "device_temperature", name: "Device temperature", state: around(38, 6), deviceClass: "temperature",
  category: "diagnostic", attributes: measurement("°C"),
};
export const restartButton: EntitySpec = {
  domain: "button", key: "restart", name: "Restart", state: "unknown", deviceClass: "restart", category: "config",
};
export const identifyButton: EntitySpec = {
  domain: "button", key: "identify", name: "Identify", state: "unknown", deviceClass: "identify", category: "diagnostic",
};

export function firmware(installed: string, latest = installed): EntitySpec {
  return {
    domain: "update", key: "firmware", name: "Firmware", state: installed === latest ? "off" : "on", deviceClass: "firmware",
    category: "config",
    attributes: {
      auto_update: false, display_precision: 0, installed_version: installed, in_progress: false, latest_version: latest,
      release_summary: null, release_url: null, skipped_version: null, title: null, update_percentage: null, supported_features: 1,
    },
  };
}

export function binary(key: string, name: string | null, deviceClass: string, onChance: number, extra: Partial<EntitySpec> = {}): EntitySpec {
  return { domain: "binary_sensor", key, name, deviceClass, state: (rng: Rng) => (rng.chance(onChance) ? "on" : "off"), ...extra };
}

/** A dimmable light; `color` adds xy colour support like a Hue colour bulb. */
export function light(o: { color?: boolean; minK?: number; maxK?: number; onChance?: number; effects?: boolean } = {}): EntitySpec {
  const minK = o.minK ?? 2202;
  const maxK = o.maxK ?? 6535;
  const modes = o.color ? ["color_temp", "xy"] : ["color_temp"];
  return {
    domain: "light",
    name: null,
    state: (rng) => (rng.chance(o.onChance ?? 0.35) ? "on" : "off"),
    attributes: (state, rng) => ({
      ...(o.effects ? { effect_list: ["off", "candle", "fire", "sparkle"], effect: state === "on" ? "off" : null } : {}),
      supported_color_modes: modes,
      min_color_temp_kelvin: minK,
      max_color_temp_kelvin: maxK,
      ...(state === "on"
        ? { color_mode: "color_temp", brightness: rng.int(40, 255), color_temp_kelvin: rng.pick([2700, 3000, 4000]) }
        : { color_mode: null, brightness: null, color_temp_kelvin: null }),
      ...(o.color ? { hs_color: null, rgb_color: null, xy_color: null } : {}),
      supported_features: o.effects ? 44 : 40,
    }),
  };
}

export const plugSwitch: EntitySpec = {
  domain: "switch", name: null, deviceClass: "outlet", state: (rng) => (rng.chance(0.6) ? "on" : "off"),
};
