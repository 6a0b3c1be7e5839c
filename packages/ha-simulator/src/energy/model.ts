import type { HouseEnergy, HouseMeter } from "../house-logic-schema.js";
import { localParts } from "../common/index.js";
import { createRng, hashString } from "../random.js";
import { sunElevation } from "../sun.js";

const HOUR = 3_600_000;
const DAY_HOURS = 24;
/** What of the energy put into the battery it can give back. */
const EFFICIENCY = 0.95;
/** The share of its capacity the battery keeps in reserve. */
const RESERVE = 0.1;
/** The hours (local, by their start) in which the battery gives back what it stored. */
const isEvening = (hour: number): boolean => hour >= 17 && hour <= 23;

export interface Place {
  latitude: number;
  longitude: number;
  timeZone: string;
}

/** One hour of the home's energy: kWh for electricity, m³ for gas and water, per device statistic id. */
interface HourFlows {
  grid_import: number;
  grid_export: number;
  solar: number;
  battery_charge: number;
  battery_discharge: number;
  gas: number;
  water: number;
  devices: Map<string, number>;
}

/** Hour-of-day weights (local time) for each way a device is used. */
function patternWeight(pattern: HouseMeter["pattern"], hour: number): number {
  switch (pattern) {
    case "continuous": return 1;
    case "morning": return hour >= 6 && hour <= 8 ? 6 : 0.15;
    case "daytime": return hour >= 8 && hour <= 18 ? 2 : 0.2;
    case "evening": return hour >= 17 && hour <= 22 ? 3.5 : 0.15;
    case "heating": return hour >= 6 && hour <= 9 ? 1.6 : hour >= 17 && hour <= 22 ? 1.4 : hour >= 23 || hour <= 5 ? 0.5 : 0.9;
    case "cycles": return 0;
  }
}

const patternTotals = new Map<string, number>();
function patternTotal(pattern: HouseMeter["pattern"]): number {
  let t = patternTotals.get(pattern);
  if (t === undefined) {
    t = 0;
    for (let h = 0; h < DAY_HOURS; h++) t += patternWeight(pattern, h);
    patternTotals.set(pattern, t);
  }
  return t;
}

/**
 * A deterministic model of a home's energy, hour by hour from `startMs`: a
 * base load, each metered device used as its pattern says, solar production
 * that follows the sun (nothing at night) and the day's cloudiness, a battery
 * that stores solar surplus by day and gives it back in the evening, and the
 * grid taking or giving the rest; gas for heating by the day's outdoor
 * temperature, and water around showers and meals. Flows balance every hour,
 * so the meters agree with each other the way real ones do. The battery
 * carries its charge from hour to hour (a third full at the start), so hours
 * are computed once, in order, as far as asked, for as long as the simulator
 * runs; what it stores and gives back then follows each day's sun and use.
 */
export class EnergyModel {
  readonly startMs: number;
  private readonly hours: HourFlows[] = [];
  /** The battery's charge in kWh at the end of the last hour computed. */
  private soc: number;
  private readonly devices: HouseMeter[];

  constructor(
    private readonly energy: HouseEnergy,
    private readonly place: Place,
    startedMs: number,
  ) {
    // Whole UTC hours, like HA's statistics rows, from a little before local midnight `days` days ago.
    this.startMs = Math.floor((startedMs - energy.days * 86_400_000 - 86_400_000) / HOUR) * HOUR;
    this.devices = energy.meters.filter((m) => m.flow === "device");
    this.soc = energy.battery_kwh / 3;
  }

  /** The flow of `meter` during hour `index` (0 = the hour starting at `startMs`), in kWh or m³. */
  hourValue(meter: HouseMeter, index: number): number {
    if (index < 0) return 0;
    // The battery's charge at an hour depends on every hour before it.
    while (this.hours.length <= index) this.hours.push(this.computeHour(this.hours.length));
    const h = this.hours[index]!;
    return meter.flow === "device" ? (h.devices.get(meter.statistic_id) ?? 0) : h[meter.flow];
  }

  private computeHour(index: number): HourFlows {
    const start = this.startMs + index * HOUR;
    const local = localParts(start + HOUR / 2, this.place.timeZone);
    const dayKey = `${local.year}-${local.month}-${local.day}`;
    const day = createRng(hashString(`energy:${this.energy.seed}:${dayKey}`));
    const dayFactor = 0.8 + day.next() * 0.4;
    const weekend = local.weekday >= 5 ? 1.12 : 1;
    const outdoor = this.outdoorTemperature(local, day.next());
    const clearness = 0.12 + day.next() ** 1.6 * 0.88;
    const hourRng = createRng(hashString(`energy-hour:${this.energy.seed}:${index}`));
    const wobble = () => 0.9 + hourRng.next() * 0.2;

    const devices = new Map<string, number>();
    let deviceTotal = 0;
    for (const d of this.devices) {
      const perDay = d.kwh_per_day ?? 1;
      let kwh: number;
      if (d.pattern === "cycles") kwh = this.cycleHour(d, dayKey, local.hour, perDay);
      else {
        const heat = d.pattern === "heating" ? Math.max(0.15, (17 - outdoor) / 10) : 1;
        kwh = (perDay * patternWeight(d.pattern, local.hour)) / patternTotal(d.pattern);
        kwh *= heat * dayFactor * (d.pattern === "continuous" ? 1 : weekend) * wobble();
      }
      devices.set(d.statistic_id, kwh);
      deviceTotal += kwh;
    }
    const untracked = (local.hour >= 17 && local.hour <= 22 ? 0.28 : local.hour === 7 ? 0.12 : 0.02) * dayFactor * wobble();
    const consumption = (this.energy.base_load_w / 1000) * wobble() + deviceTotal + untracked;
    const solar = this.solarHour(start, clearness);

    // The battery stores solar surplus up to its capacity (losing 5 % on the way in) and covers
    // the evening's shortfall down to a tenth, as a plug-in battery set to self-consumption with
    // an evening schedule does; the night and morning are left to the grid.
    const cap = this.energy.battery_kwh;
    const rate = Math.min(2.5, cap / 2);
    let charge = 0;
    let discharge = 0;
    const net = consumption - solar;
    if (cap > 0 && net < 0) charge = Math.min(-net, rate, Math.max(0, cap - this.soc) / EFFICIENCY);
    if (cap > 0 && net > 0 && isEvening(local.hour)) discharge = Math.min(net, rate, Math.max(0, this.soc - cap * RESERVE));
    this.soc += charge * EFFICIENCY - discharge;
    const gridImport = Math.max(0, net - discharge);
    const gridExport = Math.max(0, -net - charge);

    const heatingGas = (0.11 * Math.max(0, 16 - outdoor) * patternWeight("heating", local.hour)) / patternTotal("heating");
    const hotWater = local.hour === 7 ? 0.22 : local.hour === 19 ? 0.09 : 0.004;
    const waterM3 = ({ 7: 0.065, 8: 0.025, 12: 0.015, 13: 0.01, 18: 0.02, 19: 0.045, 21: 0.03 } as Record<number, number>)[local.hour] ?? 0.0015;
    return {
      grid_import: gridImport,
      grid_export: gridExport,
      solar,
      battery_charge: charge,
      battery_discharge: discharge,
      gas: (heatingGas + hotWater) * dayFactor * wobble(),
      water: waterM3 * dayFactor * weekend * wobble(),
      devices,
    };
  }

  /** A machine that runs a two-hour cycle on most days, at a time its day's dice pick. */
  private cycleHour(d: HouseMeter, dayKey: string, hour: number, perDay: number): number {
    const rng = createRng(hashString(`cycle:${this.energy.seed}:${d.statistic_id}:${dayKey}`));
    const runs = rng.chance(0.8);
    const startHour = rng.pick([9, 13, 19, 20, 21]);
    const standby = 0.003;
    if (!runs || (hour !== startHour && hour !== startHour + 1)) return standby;
    return ((perDay / 0.8) * (hour === startHour ? 0.65 : 0.35)) * (0.9 + rng.next() * 0.2);
  }

  /** kWh from the panels in an hour: nothing while the sun is down, then the sine of its elevation, scaled by the day's clouds. */
  private solarHour(start: number, clearness: number): number {
    const kwp = this.energy.solar_kwp;
    if (kwp === 0) return 0;
    // Deep night needs no sums: the sun is far below the horizon all hour.
    if (sunElevation(start + 30 * 60_000, this.place.latitude, this.place.longitude) < -20) return 0;
    let acc = 0;
    for (let q = 0; q < 4; q++) {
      const elevation = sunElevation(start + (q + 0.5) * 15 * 60_000, this.place.latitude, this.place.longitude);
      if (elevation > 0) acc += Math.sin((elevation * Math.PI) / 180);
    }
    return (kwp * 0.85 * clearness * acc) / 4;
  }

  /** The day's mean outdoor temperature: the season at this latitude, and the day's weather. */
  private outdoorTemperature(local: { month: number; day: number }, dice: number): number {
    const dayOfYear = (local.month - 1) * 30.4 + local.day;
    const seasonal = 10 - 7 * Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365) * Math.sign(this.place.latitude || 1);
    return seasonal + (dice - 0.5) * 6;
  }
}
