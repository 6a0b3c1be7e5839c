import type { StatisticValue } from "../common/index.js";
import { dict } from "../common/index.js";
import type { RecordedHome } from "../history/index.js";
import { addLocalDays, addLocalMonths, fromLocal, localParts, startOfLocalDay, startOfLocalMonth, startOfLocalWeek } from "../common/index.js";
import { convertUnit, unitClass, unitsOfClass } from "../units.js";
import { statSource, type StatRow, type StatSource } from "./sources.js";

/** The statistic types HA knows (`recorder/websocket_api.py`). */
export const STATISTIC_TYPES = ["change", "last_reset", "max", "mean", "min", "state", "sum"] as const;
export type StatisticType = (typeof STATISTIC_TYPES)[number];
/**
 * HA 2026 takes the first five; `year` is refused there (`invalid_format`). The
 * simulator still answers it, in local calendar years, because the product's
 * HA client asks for it today.
 */
export const STATISTIC_PERIODS = ["5minute", "hour", "day", "week", "month", "year"] as const;
export type StatisticPeriod = (typeof STATISTIC_PERIODS)[number];

type Column = Exclude<StatisticType, "change">;
const MEAN_COLUMNS: Column[] = ["mean", "min", "max"];
const SUM_COLUMNS: Column[] = ["sum", "state"];

export interface StatisticsQuery {
  startMs: number;
  /** Absent: every row from the start on. */
  endMs?: number;
  statisticIds: string[];
  period: StatisticPeriod;
  types: readonly StatisticType[];
  /** Unit class → unit, as in HA's `units` argument. */
  units?: Record<string, string | null>;
  nowMs: number;
}

/**
 * `recorder/statistics_during_period`, following `recorder/statistics.py`
 * (`_statistics_during_period_with_session`):
 * - `day`, `week` (from Monday) and `month` start at local midnight in HA's time
 *   zone; the start and end are widened to whole periods, then hourly rows are
 *   reduced: the mean of hourly means, the min of mins, the max of maxes, and
 *   the last row's state, sum and last_reset;
 * - `hour` rows are those starting at or after `start_time` and before `end_time`;
 *   `5minute` rows come from the short-term table (the last ten days);
 * - types a statistic cannot have are dropped when no requested statistic has
 *   them (no `sum` or `state` for measurements only), and are null otherwise;
 * - `change` is each row's sum minus the sum before it, the first compared
 *   with the last sum before the (widened) start;
 * - values come in the unit asked for in `units`, or in the sensor's current unit;
 * - `start`, `end` and `last_reset` are epoch milliseconds.
 */
export function statisticsDuringPeriod(home: RecordedHome, q: StatisticsQuery): Record<string, StatisticValue[]> {
  const sources = new Map<string, StatSource>();
  for (const id of new Set(q.statisticIds)) {
    const source = statSource(home, id);
    if (source) sources.set(id, source);
  }
  if (sources.size === 0) return {};

  const columns = new Set<Column>();
  for (const t of q.types) columns.add(t === "change" ? "sum" : t);
  const metas = [...sources.values()].map((s) => s.meta);
  if (!metas.some((m) => m.mean_type !== 0)) for (const c of MEAN_COLUMNS) columns.delete(c);
  if (!metas.some((m) => m.has_sum)) for (const c of SUM_COLUMNS) columns.delete(c);

  const tz = home.house.config.time_zone;
  const [startMs, endMs] = align(q.period, q.startMs, q.endMs, tz);
  const table = q.period === "5minute" ? "5minute" : "hour";
  const out = dict<StatisticValue[]>();
  for (const [id, source] of sources) {
    const all = source.rows(table, 0, q.nowMs);
    const inRange = all.filter((r) => r.start >= startMs && (endMs === undefined || r.start < endMs));
    if (inRange.length === 0) continue;
    const convert = converter(source.meta.unit, stateUnit(home, id, source.meta.unit), q.units);
    let rows = inRange.map((r) => pick(r, columns, convert));
    if (q.period !== "hour" && q.period !== "5minute") rows = reduce(rows, q.period, tz, columns);
    if (q.types.includes("change")) {
      const before = [...all].reverse().find((r) => r.start < startMs && r.sum !== undefined && r.sum !== null);
      addChange(rows, before?.sum != null ? convert(before.sum) : 0, !q.types.includes("sum"));
    }
    out[id] = rows;
  }
  return out;
}

function startOfLocalYear(ms: number, tz: string): number {
  return fromLocal(tz, localParts(ms, tz).year, 1, 1);
}

/** HA widens `day`, `week` and `month` queries to whole local periods; `hour` and `5minute` stay as asked. */
function align(period: StatisticPeriod, startMs: number, endMs: number | undefined, tz: string): [number, number | undefined] {
  switch (period) {
    case "day": return [startOfLocalDay(startMs, tz), endMs === undefined ? undefined : addLocalDays(endMs, tz, 1)];
    case "week": return [startOfLocalWeek(startMs, tz), endMs === undefined ? undefined : addLocalDays(startOfLocalWeek(endMs, tz), tz, 7)];
    case "month": return [startOfLocalMonth(startMs, tz), endMs === undefined ? undefined : addLocalMonths(endMs, tz, 1)];
    case "year": return [startOfLocalYear(startMs, tz), endMs === undefined ? undefined : addLocalMonths(startOfLocalYear(endMs, tz), tz, 12)];
    default: return [startMs, endMs];
  }
}

/** The unit the sensor reports now: null without one, the statistic's own unit when there is no state. */
function stateUnit(home: RecordedHome, id: string, statUnit: string | null): string | null {
  const state = home.getState(id);
  if (!state) return statUnit;
  const unit = state.attributes.unit_of_measurement;
  return typeof unit === "string" ? unit : null;
}

/**
 * `_get_statistic_to_display_unit_converter`: to the unit asked for the
 * statistic's class, else to the sensor's current unit; no conversion when
 * the unit has no class or the target is not one of the class's units.
 */
function converter(statUnit: string | null, current: string | null, units: Record<string, string | null> | undefined): (v: number) => number {
  const cls = unitClass(statUnit);
  if (cls === undefined) return (v) => v;
  const target = units && Object.hasOwn(units, cls) ? (units[cls] ?? null) : current;
  if (target === statUnit || !unitsOfClass(cls)?.includes(target)) return (v) => v;
  return (v) => convertUnit(v, statUnit, target) ?? v;
}

type Row = StatisticValue & Record<string, number | null>;

function pick(r: StatRow, columns: Set<Column>, convert: (v: number) => number): Row {
  const row = { start: r.start, end: r.end } as Row;
  for (const c of columns) {
    const v = r[c];
    row[c] = v === undefined || v === null ? null : c === "last_reset" ? v : convert(v);
  }
  return row;
}

/** `_reduce_statistics`: hourly rows grouped by local day, week or month. */
function reduce(rows: Row[], period: "day" | "week" | "month" | "year", tz: string, columns: Set<Column>): Row[] {
  const bounds = (t: number): [number, number] => {
    if (period === "day") return [startOfLocalDay(t, tz), addLocalDays(t, tz, 1)];
    if (period === "week") {
      const s = startOfLocalWeek(t, tz);
      return [s, addLocalDays(s, tz, 7)];
    }
    if (period === "year") return [startOfLocalYear(t, tz), addLocalMonths(startOfLocalYear(t, tz), tz, 12)];
    return [startOfLocalMonth(t, tz), addLocalMonths(t, tz, 1)];
  };
  const out: Row[] = [];
  let group: Row[] = [];
  let groupEnd = -Infinity;
  const flush = () => {
    if (group.length === 0) return;
    const last = group[group.length - 1]!;
    const [start, end] = bounds(group[0]!.start);
    const row = { start, end } as Row;
    const values = (c: Column) => group.map((g) => g[c]).filter((v): v is number => v !== null && v !== undefined);
    if (columns.has("mean")) {
      const means = values("mean");
      row.mean = means.length > 0 ? means.reduce((a, b) => a + b, 0) / means.length : null;
    }
    if (columns.has("min")) row.min = values("min").length > 0 ? Math.min(...values("min")) : null;
    if (columns.has("max")) row.max = values("max").length > 0 ? Math.max(...values("max")) : null;
    if (columns.has("last_reset")) row.last_reset = last.last_reset ?? null;
    if (columns.has("state")) row.state = last.state ?? null;
    if (columns.has("sum")) row.sum = last.sum ?? null;
    out.push(row);
    group = [];
  };
  for (const r of rows) {
    if (r.start >= groupEnd) {
      flush();
      groupEnd = bounds(r.start)[1];
    }
    group.push(r);
  }
  flush();
  return out;
}

/** `_augment_result_with_change`. */
function addChange(rows: Row[], prevSum: number, dropSum: boolean): void {
  let prev = prevSum;
  for (const row of rows) {
    if (!("sum" in row)) continue;
    const sum = row.sum;
    if (dropSum) delete row.sum;
    if (sum === null || sum === undefined) {
      row.change = null;
      continue;
    }
    row.change = sum - prev;
    prev = sum;
  }
}
