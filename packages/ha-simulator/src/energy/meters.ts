import type { House, HouseEntity } from "../house-schema.js";
import type { HouseMeter } from "../house-logic-schema.js";
import { startOfLocalDay } from "../common/index.js";
import { convertUnit } from "../units.js";
import { EnergyModel } from "./model.js";

const HOUR = 3_600_000;

/**
 * The modelled meters of a house: what flowed through each between two
 * instants, and its reading at any time, in the meter's own unit (Wh, kWh,
 * m³, L…). Only the hours asked about are computed.
 */
export class EnergyMeters {
  readonly model: EnergyModel | undefined;
  private readonly meters = new Map<string, { meter: HouseMeter; entity: HouseEntity | undefined; factor: number }>();

  constructor(
    private readonly house: House,
    private readonly startedMs: number,
  ) {
    const energy = house.energy;
    if (!energy || energy.meters.length === 0) return;
    const c = house.config;
    this.model = new EnergyModel(energy, { latitude: c.latitude, longitude: c.longitude, timeZone: c.time_zone }, startedMs);
    const entities = new Map(house.entities.map((e) => [e.entity_id, e]));
    for (const meter of energy.meters) {
      const entity = entities.get(meter.statistic_id);
      const native = meter.flow === "gas" || meter.flow === "water" ? "m³" : "kWh";
      const unit = String(entity?.attributes.unit_of_measurement ?? native);
      this.meters.set(meter.statistic_id, { meter, entity, factor: convertUnit(1, native, unit) ?? 1 });
    }
  }

  /** Where the model (and the statistics sums) begin. */
  get startMs(): number {
    return this.model?.startMs ?? this.startedMs;
  }

  has(entityId: string): boolean {
    return this.meters.has(entityId);
  }

  ids(): string[] {
    return [...this.meters.keys()];
  }

  isDaily(entityId: string): boolean {
    return this.meters.get(entityId)?.meter.daily_reset === true;
  }

  /** What flowed through the meter in one whole hour (index from `startMs`), in its unit. */
  hour(entityId: string, index: number): number {
    const m = this.meters.get(entityId);
    if (!m || !this.model) return 0;
    return this.model.hourValue(m.meter, index) * m.factor;
  }

  /** What flowed through the meter between two instants (negative when `to` is earlier); linear within an hour. */
  between(entityId: string, fromMs: number, toMs: number): number {
    if (toMs < fromMs) return -this.between(entityId, toMs, fromMs);
    const start = this.startMs;
    const from = Math.max(fromMs, start);
    if (toMs <= from) return 0;
    let total = 0;
    for (let i = Math.floor((from - start) / HOUR); start + i * HOUR < toMs; i++) {
      const hs = start + i * HOUR;
      const overlap = Math.min(toMs, hs + HOUR) - Math.max(from, hs);
      if (overlap > 0) total += (this.hour(entityId, i) * overlap) / HOUR;
    }
    return total;
  }

  /**
   * The meter's reading at `ms`. A lifetime meter reads what its entity says
   * at start, counted backwards and onwards from there; a daily meter reads
   * what flowed since local midnight.
   */
  reading(entityId: string, ms: number): number {
    const m = this.meters.get(entityId);
    if (!m) return 0;
    if (m.meter.daily_reset) return this.between(entityId, startOfLocalDay(ms, this.house.config.time_zone), ms);
    const stated = Number(m.entity?.state);
    return (Number.isFinite(stated) ? stated : 0) + this.between(entityId, this.startedMs, ms);
  }

  /** The reading as the sensor writes it, with the decimals of its stated value (two for a daily meter). */
  stateText(entityId: string, ms: number): string {
    const m = this.meters.get(entityId);
    const stated = m?.entity?.state ?? "";
    const decimals = m?.meter.daily_reset ? 2 : (stated.split(".")[1] ?? "").length;
    return Math.max(0, this.reading(entityId, ms)).toFixed(decimals);
  }
}

const cache = new WeakMap<object, EnergyMeters>();

/** One set of meters per home (a house and its start time), made on first use. */
export function energyMetersOf(home: { readonly house: House; readonly startedMs: number }): EnergyMeters {
  let meters = cache.get(home);
  if (!meters) cache.set(home, (meters = new EnergyMeters(home.house, home.startedMs)));
  return meters;
}
