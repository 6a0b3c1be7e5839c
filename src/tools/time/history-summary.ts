import type { HistoryResult, StatisticValue } from "../../ha/index.js";
import { bucketBounds } from "./buckets.js";
import type { TimeRange } from "./time-input.js";
import { round3 } from "./words.js";

/** A state held for a while: `endMs` null while it is still the state now. */
export interface Held {
  state: string;
  startMs: number;
  endMs: number | null;
}

export interface NumericSummary {
  min: number;
  max: number;
  /** Weighted by how long each value was held (by each row's length for statistics). */
  mean: number;
  first: number;
  last: number;
  /** For totals read from statistics: how much they grew over the period. */
  change?: number;
  buckets: { startMs: number; endMs: number; min: number; mean: number; max: number }[];
}

/** One entity over the period, before a token budget cuts anything. */
export interface EntityHistory {
  entityId: string;
  name: string;
  unit: string | null;
  source: "history" | "statistics";
  /** Every state it held in the period, in order, cut to the period. */
  held: Held[];
  /** State changes inside the period (the state held at its start is not one). */
  changeCount: number;
  /** How long each state was held, longest first. */
  timeIn: { state: string; ms: number }[];
  numeric?: NumericSummary;
}

/** States that say nothing about a value: a numeric sensor's gaps. */
const NO_VALUE = new Set(["unavailable", "unknown", ""]);

/**
 * The states an entity held from HA's compressed history rows: the row at
 * the start is the state then (its time is the start), later rows are
 * changes; rows that repeat a state (attribute updates) are merged.
 */
export function heldStates(rows: HistoryResult[string], range: TimeRange, toNow: boolean): Held[] {
  const held: Held[] = [];
  for (const row of rows) {
    const at = Math.max(Math.round((row.lc ?? row.lu) * 1000), range.startMs);
    if (at >= range.endMs) break;
    const last = held.at(-1);
    if (last && last.state === row.s) continue;
    if (last) last.endMs = at;
    held.push({ state: row.s, startMs: at, endMs: null });
  }
  const last = held.at(-1);
  if (last && !toNow) last.endMs = range.endMs;
  return held;
}

const valueOf = (state: string): number | undefined => {
  if (state.trim() === "") return undefined;
  const n = Number(state);
  return Number.isFinite(n) ? n : undefined;
};

/** Numbers only (gaps aside): a sensor, a number helper, a counter. */
export function isNumericSeries(held: Held[]): boolean {
  return held.some((h) => valueOf(h.state) !== undefined) && held.every((h) => valueOf(h.state) !== undefined || NO_VALUE.has(h.state));
}

/** An entity's period from its history: time in each state, changes, and for numbers the summary with buckets. */
export function summarizeHistory(args: { entityId: string; name: string; unit: string | null; rows: HistoryResult[string]; range: TimeRange; toNow: boolean; zone: string }): EntityHistory {
  const { range } = args;
  const held = heldStates(args.rows, range, args.toNow);
  const end = (h: Held) => h.endMs ?? range.endMs;
  const totals = new Map<string, number>();
  for (const h of held) totals.set(h.state, (totals.get(h.state) ?? 0) + end(h) - h.startMs);
  const timeIn = [...totals].map(([state, ms]) => ({ state, ms })).sort((a, b) => b.ms - a.ms);
  const base = { entityId: args.entityId, name: args.name, unit: args.unit, source: "history" as const, held, changeCount: held.filter((h) => h.startMs > range.startMs).length, timeIn };
  if (!isNumericSeries(held)) return base;
  const spans = held.flatMap((h) => {
    const v = valueOf(h.state);
    return v === undefined ? [] : [{ v, from: h.startMs, to: end(h) }];
  });
  const over = (from: number, to: number) => {
    const inside = spans.filter((s) => s.to > from && s.from < to);
    if (inside.length === 0) return undefined;
    let weighted = 0;
    let time = 0;
    for (const s of inside) {
      const t = Math.min(s.to, to) - Math.max(s.from, from);
      weighted += s.v * t;
      time += t;
    }
    const values = inside.map((s) => s.v);
    return { min: Math.min(...values), max: Math.max(...values), mean: time > 0 ? weighted / time : values[0]! };
  };
  const all = over(range.startMs, range.endMs)!;
  const buckets = bucketBounds(range, args.zone).flatMap(([startMs, endMs]) => {
    const b = over(startMs, endMs);
    return b ? [{ startMs, endMs, min: round3(b.min), mean: round3(b.mean), max: round3(b.max) }] : [];
  });
  return { ...base, numeric: { min: round3(all.min), max: round3(all.max), mean: round3(all.mean), first: spans[0]!.v, last: spans.at(-1)!.v, buckets } };
}

/**
 * An entity's period from long-term statistics (hourly rows): no states or
 * changes, but the mean, min and max of a measurement, or the readings of a
 * total and how much it grew.
 */
export function summarizeStatistics(args: { entityId: string; name: string; unit: string | null; rows: StatisticValue[]; range: TimeRange; zone: string }): EntityHistory {
  const base = { entityId: args.entityId, name: args.name, unit: args.unit, source: "statistics" as const, held: [], changeCount: 0, timeIn: [] };
  const rows = args.rows.filter((r) => r.start < args.range.endMs && r.end > args.range.startMs);
  const points = rows.flatMap((r) => {
    const mean = r.mean ?? r.state;
    if (mean === null || mean === undefined) return [];
    return [{ from: r.start, to: r.end, mean, min: r.min ?? mean, max: r.max ?? mean, change: r.change ?? 0 }];
  });
  if (points.length === 0) return base;
  const reduce = (list: typeof points) => {
    let weighted = 0;
    let time = 0;
    for (const p of list) {
      weighted += p.mean * (p.to - p.from);
      time += p.to - p.from;
    }
    return { min: Math.min(...list.map((p) => p.min)), max: Math.max(...list.map((p) => p.max)), mean: weighted / time };
  };
  const all = reduce(points);
  const isTotal = rows.some((r) => r.change !== undefined && r.change !== null);
  const buckets = bucketBounds(args.range, args.zone).flatMap(([startMs, endMs]) => {
    const inside = points.filter((p) => p.from >= startMs && p.from < endMs);
    if (inside.length === 0) return [];
    const b = reduce(inside);
    return [{ startMs, endMs, min: round3(b.min), mean: round3(b.mean), max: round3(b.max) }];
  });
  const numeric: NumericSummary = { min: round3(all.min), max: round3(all.max), mean: round3(all.mean), first: round3(points[0]!.mean), last: round3(points.at(-1)!.mean), buckets };
  if (isTotal) numeric.change = round3(points.reduce((sum, p) => sum + p.change, 0));
  return { ...base, numeric };
}
