/**
 * The unit classes and conversions HA's statistics use (`util/unit_conversion.py`):
 * rows are stored in the sensor's own unit and converted on the way out, to
 * the unit asked for in `units` or else to the sensor's current unit.
 */

const IN = 0.0254;
const FT = IN * 12;
const MERCURY = 1000 * 9.80665 * 13.5951;

/** Factor to the class's base unit (kWh, W, m³, s, Pa, m², m³/h, g/m³); `unitless` has a null base as well. */
const LINEAR = new Map<string, Map<string | null, number>>(Object.entries({
  energy: { J: 1 / 3_600_000, kJ: 1 / 3600, MJ: 1 / 3.6, GJ: 1000 / 3.6, mWh: 1e-6, Wh: 0.001, kWh: 1, MWh: 1000, GWh: 1e6, TWh: 1e9, cal: 4.184 / 3_600_000, kcal: 4.184 / 3600, Mcal: 4.184 / 3.6, Gcal: 4184 / 3.6 },
  power: { mW: 0.001, W: 1, kW: 1000, MW: 1e6, GW: 1e9, TW: 1e12, "BTU/h": 0.29307107 },
  volume: { "m³": 1, L: 0.001, mL: 1e-6, "ft³": FT ** 3, gal: 231 * IN ** 3, "fl. oz.": (231 * IN ** 3) / 128, CCF: 100 * FT ** 3, MCF: 1000 * FT ** 3 },
  duration: { "μs": 1e-6, ms: 0.001, s: 1, min: 60, h: 3600, d: 86_400, w: 604_800 },
  pressure: { mPa: 0.001, Pa: 1, hPa: 100, kPa: 1000, bar: 100_000, cbar: 1000, mbar: 100, inHg: IN * MERCURY, "inH₂O": 249.0889083333348, psi: 6894.757, mmHg: 0.001 * MERCURY },
  area: { "m²": 1, "cm²": 1e-4, "mm²": 1e-6, "km²": 1e6, "in²": IN ** 2, "ft²": FT ** 2, "yd²": (3 * FT) ** 2, "mi²": (1760 * 3 * FT) ** 2, ac: 66 * 660 * FT ** 2, ha: 10_000 },
  volume_flow_rate: { "m³/h": 1, "m³/min": 60, "m³/s": 3600, "ft³/min": 60 * FT ** 3, "L/h": 0.001, "L/min": 0.06, "L/s": 3.6, "gal/h": 231 * IN ** 3, "gal/min": 60 * 231 * IN ** 3, "gal/d": (231 * IN ** 3) / 24, "mL/s": 0.0036 },
  concentration: { "μg/m³": 1e-6, "mg/m³": 0.001, "g/m³": 1 },
}).map(([cls, units]) => [cls, new Map<string | null, number>(Object.entries(units))]));
// UnitlessRatioConverter: no unit at all is a unitless ratio too.
LINEAR.set("unitless", new Map<string | null, number>([[null, 1], ["%", 0.01], ["ppm", 1e-6], ["ppb", 1e-9]]));

/** HA's UNIT_CLASSES: which class a unit belongs to, or undefined (the recorder answers null). */
export function unitClass(unit: string | null | undefined): string | undefined {
  if (unit === undefined) return undefined;
  for (const [cls, units] of LINEAR) if (units.has(unit)) return cls;
  if (unit === "°C" || unit === "°F" || unit === "K") return "temperature";
  return undefined;
}

/** Converts a value between two units of one class; undefined when they cannot be converted. */
export function convertUnit(value: number, from: string | null, to: string | null): number | undefined {
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

/** Every unit of a class (a converter's VALID_UNITS), null included for `unitless`. */
export function unitsOfClass(cls: string): (string | null)[] | undefined {
  if (cls === "temperature") return ["°C", "°F", "K"];
  const units = LINEAR.get(cls);
  return units ? [...units.keys()] : undefined;
}
