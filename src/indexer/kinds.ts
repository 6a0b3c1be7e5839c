import type { EntityStructure } from "./model.js";
import { isSecondary } from "./resolve.js";
import { classTerm, domainTerm } from "./vocabulary/index.js";

/** Domains whose entities carry out commands; anything else only reports. */
const CONTROLLABLE = new Set([
  "light", "switch", "fan", "cover", "lock", "media_player", "climate", "vacuum", "valve", "lawn_mower", "humidifier", "water_heater",
  "scene", "script", "automation", "input_boolean", "input_number", "input_select", "input_button", "button", "siren",
  "alarm_control_panel", "todo", "remote", "number", "select", "timer", "counter", "text", "notify",
]);
const NUMERIC_DOMAINS = new Set(["sensor", "number", "input_number"]);
/** Classes whose sensors report text, not a number (a date, a choice). */
const NON_NUMERIC_CLASSES = new Set(["enum", "timestamp", "date"]);

/** The class a unit of measurement stands for, for sensors that report no class of their own. */
const UNIT_CLASSES = new Map<string, string>([
  ["°c", "temperature"], ["°f", "temperature"], ["k", "temperature"],
  ["w", "power"], ["kw", "power"], ["va", "apparent_power"],
  ["wh", "energy"], ["kwh", "energy"], ["mwh", "energy"],
  ["v", "voltage"], ["mv", "voltage"], ["a", "current"], ["ma", "current"],
  ["lx", "illuminance"], ["hpa", "atmospheric_pressure"], ["mbar", "atmospheric_pressure"], ["inhg", "atmospheric_pressure"], ["mmhg", "atmospheric_pressure"], ["bar", "pressure"], ["psi", "pressure"], ["pa", "pressure"],
  ["ppm", "carbon_dioxide"], ["µg/m³", "pm25"], ["db", "sound_pressure"], ["dba", "sound_pressure"], ["dbm", "signal_strength"],
  ["km/h", "wind_speed"], ["m/s", "wind_speed"], ["mph", "wind_speed"], ["mm", "precipitation"], ["mm/h", "precipitation_intensity"],
  ["m³", "volume"], ["l", "volume"], ["gal", "volume"], ["kg", "weight"], ["g", "weight"], ["lb", "weight"],
  ["km", "distance"], ["mi", "distance"], ["min", "duration"], ["h", "duration"], ["s", "duration"],
]);

/** Traits that decide preferences between entities that match equally. */
export const TRAIT = { controllable: 1, numeric: 2, binary: 4, secondary: 8 } as const;

/** What kind of device an entity is, as terms of the index's kind field: its domain and its device class (or the class its unit implies). */
export function kindTermsOf(s: EntityStructure): string[] {
  const out = [domainTerm(s.domain)];
  const cls = s.deviceClass ?? (s.unit ? UNIT_CLASSES.get(s.unit.toLowerCase()) : undefined);
  if (cls) out.push(classTerm(cls));
  return out;
}

/** The traits of an entity: whether it takes commands, reports a number, or reports on/off. */
export function traitsOf(s: EntityStructure): number {
  let t = 0;
  if (CONTROLLABLE.has(s.domain)) t |= TRAIT.controllable;
  if (NUMERIC_DOMAINS.has(s.domain) && (s.unit !== null || (s.deviceClass !== null && !NON_NUMERIC_CLASSES.has(s.deviceClass)))) t |= TRAIT.numeric;
  if (s.domain === "binary_sensor") t |= TRAIT.binary;
  // Disabled, hidden, diagnostic and config entities are left out of search unless asked for.
  if (isSecondary(s)) t |= TRAIT.secondary;
  return t;
}
