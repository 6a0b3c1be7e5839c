import { dict, own } from "../common/index.js";
import { energyMetersOf, type EnergyMeters } from "../energy/index.js";
import { historyOf, type HistoryPoint, type RecordedHome } from "../history/index.js";
import { hashString } from "../random.js";
import { localParts } from "../common/index.js";
import { unitClass } from "../units.js";

export const HOUR = 3_600_000;
export const FIVE_MINUTES = 300_000;
/** Days of hourly statistics the simulator keeps, and of 5-minute ones (HA's default purge_keep_days). */
export const LONG_TERM_DAYS = 30;
export const SHORT_TERM_DAYS = 10;

/** One statistics row as the recorder stores it: times in ms, values in the statistic's own unit. */
export interface StatRow {
  start: number;
  end: number;
  mean?: number | null;
  min?: number | null;
  max?: number | null;
  state?: number | null;
  sum?: number | null;
  last_reset?: number | null;
}

/** The recorder's metadata of a statistic (`StatisticMetaData`). */
export interface StatMeta {
  statistic_id: string;
  unit: string | null;
  has_sum: boolean;
  /** StatisticMeanType: 0 none, 1 arithmetic, 2 circular. */
  mean_type: 0 | 1 | 2;
  name: null;
  source: "recorder";
}

export interface StatSource {
  meta: StatMeta;
  /** Rows of one table (`hour` or `5minute`) from `fromMs`, for periods that had ended by `nowMs`. */
  rows(table: "hour" | "5minute", fromMs: number, nowMs: number): StatRow[];
}

const num = (s: string) => (s.trim() === "" ? NaN : Number(s));

/**
 * The statistics HA's sensor recorder keeps (`sensor/recorder.py`): sensors
 * with a `state_class` only. `measurement` has mean/min/max (circular for wind
 * direction), `total` and `total_increasing` have state and sum.
 */
export function statSource(home: RecordedHome, statisticId: string): StatSource | undefined {
  if (!statisticId.startsWith("sensor.")) return undefined;
  const attributes = home.getState(statisticId)?.attributes ?? home.house.entities.find((e) => e.entity_id === statisticId)?.attributes;
  if (!attributes) return undefined;
  const stateClass = own(attributes, "state_class");
  if (stateClass !== "measurement" && stateClass !== "total" && stateClass !== "total_increasing") return undefined;
  const unitAttr = own(attributes, "unit_of_measurement");
  const unit = typeof unitAttr === "string" ? unitAttr : null;
  const isTotal = stateClass !== "measurement";
  const circular = own(attributes, "device_class") === "wind_direction";
  const meta: StatMeta = { statistic_id: statisticId, unit, has_sum: isTotal, mean_type: isTotal ? 0 : circular ? 2 : 1, name: null, source: "recorder" };
  const meters = energyMetersOf(home);
  if (isTotal && meters.has(statisticId)) return { meta, rows: (table, from, now) => meterRows(meters, statisticId, table, from, now) };
  // Other statistics come from the recorded states, read on first use.
  const numeric = () =>
    historyOf(home)
      .series(statisticId)
      .map((p) => ({ t: p.updatedMs, v: num(p.state), p }))
      .filter((x) => Number.isFinite(x.v));
  if (isTotal) return { meta, rows: (table, from, now) => totalRows(numeric(), table, from, now, stateClass === "total") };
  return { meta, rows: (table, from, now) => measurementRows(home, statisticId, numeric(), unit, table, from, now) };
}

function periodMs(table: "hour" | "5minute"): number {
  return table === "hour" ? HOUR : FIVE_MINUTES;
}

/** The first period start the table keeps, and the last one that has ended. */
function span(table: "hour" | "5minute", fromMs: number, nowMs: number): [number, number] {
  const p = periodMs(table);
  const oldest = nowMs - (table === "hour" ? LONG_TERM_DAYS : SHORT_TERM_DAYS) * 86_400_000;
  const first = Math.ceil(Math.max(fromMs, oldest) / p) * p;
  return [first, Math.floor(nowMs / p) * p - p];
}

/** A modelled meter: the reading at each period's end, and the sum of everything that flowed since the model began. */
function meterRows(meters: EnergyMeters, id: string, table: "hour" | "5minute", fromMs: number, nowMs: number): StatRow[] {
  const p = periodMs(table);
  const [first, lastStart] = span(table, Math.max(fromMs, meters.startMs), nowMs);
  const rows: StatRow[] = [];
  if (first > lastStart) return rows;
  let sum = meters.between(id, meters.startMs, first);
  let reading = meters.reading(id, first);
  const daily = meters.isDaily(id);
  for (let s = first; s <= lastStart; s += p) {
    const flow = meters.between(id, s, s + p);
    sum += flow;
    reading = daily ? meters.reading(id, s + p) : reading + flow;
    rows.push({ start: s, end: s + p, state: round(reading), sum: round(sum), last_reset: null });
  }
  return rows;
}

type Numeric = { t: number; v: number; p: HistoryPoint };

/** A total that is not modelled: state and sum from its recorded readings, the sum counted from the first one. */
function totalRows(numeric: Numeric[], table: "hour" | "5minute", fromMs: number, nowMs: number, withReset: boolean): StatRow[] {
  if (numeric.length === 0) return [];
  const p = periodMs(table);
  const [first, lastStart] = span(table, Math.max(fromMs, Math.floor(numeric[0]!.t / p) * p), nowMs);
  const baseline = numeric[0]!.v;
  const rows: StatRow[] = [];
  let i = 0;
  let held: Numeric | undefined;
  for (let s = first; s <= lastStart; s += p) {
    while (i < numeric.length && numeric[i]!.t < s + p) held = numeric[i++];
    if (!held) continue;
    const reset = withReset ? lastResetMs(held.p.attributes) : null;
    rows.push({ start: s, end: s + p, state: held.v, sum: round(held.v - baseline), last_reset: reset });
  }
  return rows;
}

function lastResetMs(attributes: Record<string, unknown>): number | null {
  const raw = own(attributes, "last_reset");
  const ms = typeof raw === "string" ? Date.parse(raw) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * A measurement: time-weighted mean, min and max of the recorded states in
 * each period; before the recorded history starts, hourly rows follow a daily
 * rhythm around the first recorded value, the same for every call.
 */
function measurementRows(home: RecordedHome, id: string, numeric: Numeric[], unit: string | null, table: "hour" | "5minute", fromMs: number, nowMs: number): StatRow[] {
  if (numeric.length === 0) return [];
  const p = periodMs(table);
  const [first, lastStart] = span(table, fromMs, nowMs);
  const recordedFrom = numeric[0]!.t;
  const rows: StatRow[] = [];
  let i = 0;
  let held: Numeric | undefined;
  for (let s = first; s <= lastStart; s += p) {
    const end = s + p;
    if (end <= recordedFrom) {
      if (table === "hour") rows.push(syntheticHour(home, id, numeric[0]!.v, unit, s));
      continue;
    }
    const inside: Numeric[] = [];
    while (i < numeric.length && numeric[i]!.t < end) {
      if (numeric[i]!.t < s) held = numeric[i];
      else inside.push(numeric[i]!);
      i++;
    }
    if (!held && inside.length === 0) continue;
    const values = [...(held ? [held.v] : []), ...inside.map((x) => x.v)];
    rows.push({ start: s, end, mean: round(timeWeightedMean(held, inside, s, end)), min: Math.min(...values), max: Math.max(...values) });
    if (inside.length > 0) held = inside[inside.length - 1];
  }
  return rows;
}

function syntheticHour(home: RecordedHome, id: string, anchor: number, unit: string | null, start: number): StatRow {
  const hour = localParts(start, home.house.config.time_zone).hour;
  const noise = ((hashString(`stat:${id}:${start}`) % 1000) / 1000 - 0.5) * 2;
  const spread = unit === "°C" ? 1.2 : unit === "°F" ? 2.2 : unit === "%" ? 4 : unit === "lx" ? anchor + 40 : Math.abs(anchor) * 0.08 + 0.5;
  const daily = unit === "lx" ? Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI)) * spread - anchor / 2 : Math.sin(((hour - 9) / 24) * 2 * Math.PI) * spread * 0.6;
  let mean = anchor + daily + noise * spread * 0.25;
  if (anchor >= 0) mean = Math.max(0, mean);
  if (unit === "%") mean = Math.min(100, mean);
  const width = Math.abs(spread) * 0.15 + 0.05;
  const min = anchor >= 0 ? Math.max(0, mean - width) : mean - width;
  return { start, end: start + HOUR, mean: round(mean), min: round(min), max: round(mean + width) };
}

function timeWeightedMean(held: Numeric | undefined, inside: Numeric[], from: number, to: number): number {
  let acc = 0;
  let spanMs = 0;
  let value = held?.v;
  let t = held ? from : (inside[0]?.t ?? from);
  for (const x of inside) {
    if (value !== undefined) {
      acc += value * (x.t - t);
      spanMs += x.t - t;
    }
    value = x.v;
    t = x.t;
  }
  if (value !== undefined && to > t) {
    acc += value * (to - t);
    spanMs += to - t;
  }
  return spanMs > 0 ? acc / spanMs : (value ?? 0);
}

export const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Every statistic the recorder has: one per sensor with a state class. */
export function allStatSources(home: RecordedHome): Map<string, StatSource> {
  const out = new Map<string, StatSource>();
  for (const id of historyOf(home).entityIds()) {
    const source = statSource(home, id);
    if (source) out.set(id, source);
  }
  return out;
}

/** The metadata fields the recorder's list answers carry (`_flatten_list_statistic_ids_metadata_result`). */
export function metadataRow(meta: StatMeta, displayUnit: string | null): Record<string, unknown> {
  return dict({
    statistic_id: meta.statistic_id,
    display_unit_of_measurement: displayUnit,
    has_mean: meta.mean_type === 1,
    mean_type: meta.mean_type,
    has_sum: meta.has_sum,
    name: meta.name,
    source: meta.source,
    statistics_unit_of_measurement: meta.unit,
    unit_class: unitClass(meta.unit) ?? null,
  });
}
