/**
 * The unit classes and conversions HA's statistics use (`util/unit_conversion.py`):
 * rows are stored in the sensor's own unit and converted on the way out, to
 * the unit asked for in `units` or else to the sensor's current unit.
 */

/** Factor to the class's base unit (kWh, W, m³). */
const LINEAR = new Map<string, Map<string, number>>(Object.entries({
  energy: { Wh: 0.001, kWh: 1, MWh: 1000, GWh: 1_000_000, mWh: 0.000001, MJ: 1 / 3.6, GJ: 1000 / 3.6, cal: 1.163e-6, kcal: 0.001163, Mcal: 1.163, Gcal: 1163 },
  power: { mW: 0.001, W: 1, kW: 1000, MW: 1_000_000, GW: 1_000_000_000, TW: 1e12, "BTU/h": 0.29307107 },
  volume: { "m³": 1, L: 0.001, mL: 0.000001, "ft³": 0.028316846592, gal: 0.003785411784, "fl. oz.": 0.0000295735295625, CCF: 2.8316846592 },
}).map(([cls, units]) => [cls, new Map(Object.entries(units))]));

/** HA's UNIT_CLASSES: which class a unit belongs to, or undefined (the recorder answers null). */
export function unitClass(unit: string | null | undefined): string | undefined {
  if (unit === null || unit === undefined) return undefined;
  for (const [cls, units] of LINEAR) if (units.has(unit)) return cls;
  if (unit === "°C" || unit === "°F" || unit === "K") return "temperature";
  return undefined;
}

/** Converts a value between two units of one class; undefined when they cannot be converted. */
export function convertUnit(value: number, from: string, to: string): number | undefined {
  if (from === to) return value;
  for (const units of LINEAR.values()) {
    if (units.has(from) && units.has(to)) return (value * units.get(from)!) / units.get(to)!;
  }
  const celsius = from === "°C" ? value : from === "°F" ? ((value - 32) * 5) / 9 : from === "K" ? value - 273.15 : undefined;
  if (celsius === undefined) return undefined;
  if (to === "°C") return celsius;
  if (to === "°F") return (celsius * 9) / 5 + 32;
  if (to === "K") return celsius + 273.15;
  return undefined;
}

/** The units HA's `units` argument accepts per class (UNIT_SCHEMA); anything else is refused. */
export function validUnits(cls: string): string[] | undefined {
  if (cls === "temperature") return ["°C", "°F", "K"];
  const units = LINEAR.get(cls);
  return units ? [...units.keys()] : undefined;
}
