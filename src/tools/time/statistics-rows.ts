import type { StatisticMetadata, StatisticValue } from "../../ha/index.js";
import { localDay, localTime } from "../../shared/index.js";
import type { RowOut, StatisticPeriod, StatisticType } from "./statistics-schema.js";
import type { TimeRange } from "./time-input.js";
import { round3, withUnit } from "./words.js";

/** The types a statistic can have: totals grow (change, sum, state), measurements have a mean, min and max. */
const SUM_TYPES = new Set<StatisticType>(["change", "sum", "state"]);
const MEAN_TYPES = new Set<StatisticType>(["mean", "min", "max"]);

export const hasMean = (m: StatisticMetadata): boolean => (m.mean_type ?? (m.has_mean ? 1 : 0)) !== 0;

/** The types to ask for when none are given: how much a total changed, or a measurement's mean, min and max. */
export function defaultTypes(meta: StatisticMetadata[]): StatisticType[] {
  const types = new Set<StatisticType>();
  for (const m of meta) {
    if (m.has_sum) types.add("change");
    if (hasMean(m)) for (const t of ["mean", "min", "max"] as const) types.add(t);
  }
  return [...types];
}

/** One row with the types this statistic can have; HA sends null for the others when another statistic asked for them. */
export function rowOut(r: StatisticValue, o: { meta: StatisticMetadata; types: StatisticType[]; iso: (ms: number) => string }): RowOut {
  const row: RowOut = { start: o.iso(r.start), end: o.iso(r.end) };
  const can = new Set<StatisticType>([...(o.meta.has_sum ? SUM_TYPES : []), ...(hasMean(o.meta) ? MEAN_TYPES : [])]);
  for (const t of o.types) {
    if (!can.has(t)) continue;
    const v = r[t];
    if (typeof v === "number") row[t] = round3(v);
  }
  return row;
}

/** When a row was, as a person names that period: "14:00 CET", "2026-11-24", "the week of 2026-11-23", "2026-11". */
export function rowLabel(period: StatisticPeriod, startMs: number, at: { now: number; zone: string }): string {
  if (period === "day") return localDay(startMs, at.zone);
  if (period === "week") return `the week of ${localDay(startMs, at.zone)}`;
  if (period === "month") return localDay(startMs, at.zone).slice(0, 7);
  return localTime(startMs, at.now, at.zone);
}

/** One sentence about a statistic over the period, from all its rows (before any are cut). */
export function statisticLine(o: { id: string; name: string; unit: string | null; rows: StatisticValue[]; meta: StatisticMetadata; period: StatisticPeriod; at: { now: number; zone: string } }): string {
  const who = o.name === o.id ? o.id : `${o.name} (${o.id})`;
  if (o.rows.length === 0) return `${who}: no rows in this period.`;
  const parts: string[] = [];
  const changes = o.rows.filter((r) => typeof r.change === "number");
  if (o.meta.has_sum && changes.length) {
    const total = changes.reduce((s, r) => s + r.change!, 0);
    const top = changes.reduce((a, b) => (b.change! > a.change! ? b : a));
    parts.push(`${withUnit(total, o.unit, 2)} in all${changes.length > 1 ? `, most ${rowLabel(o.period, top.start, o.at)} (${withUnit(top.change!, o.unit, 2)})` : ""}`);
  }
  const means = o.rows.filter((r) => typeof r.mean === "number");
  if (hasMean(o.meta) && means.length) {
    const weight = (r: StatisticValue) => r.end - r.start;
    const mean = means.reduce((s, r) => s + r.mean! * weight(r), 0) / means.reduce((s, r) => s + weight(r), 0);
    const lows = o.rows.map((r) => r.min).filter((v): v is number => typeof v === "number");
    const highs = o.rows.map((r) => r.max).filter((v): v is number => typeof v === "number");
    const range = lows.length && highs.length ? `${withUnit(Math.min(...lows), o.unit)} to ${withUnit(Math.max(...highs), o.unit)}, ` : "";
    parts.push(`${range}mean ${withUnit(mean, o.unit)}`);
  }
  return `${who}: ${parts.length ? parts.join("; ") : `${o.rows.length} rows`}.`;
}

/**
 * The rows of the period: HA widens a day, week or month query to the whole
 * period holding its end, even an end at midnight that is the next period's
 * start (`recorder/statistics.py`), and the answer covers what it says.
 */
export const within = (range: TimeRange, rows: StatisticValue[]): StatisticValue[] => rows.filter((r) => r.start >= range.startMs && r.start < range.endMs);
