import type { HassContext, HistoryResult, LogbookEntry, StatisticValue } from "../../ha/index.js";
import { dict, own } from "../../shared/index.js";
import type { HistoryPoint } from "./generate.js";
import { historyOf, type RecordedHome } from "./store.js";

/** Domains whose attribute-only changes HA's recorder counts as significant. */
const SIGNIFICANT_ATTRIBUTE_DOMAINS = new Set(["climate", "device_tracker", "humidifier", "thermostat", "water_heater"]);
/** Domains whose rows keep their attributes even with `no_attributes` or `minimal_response`. */
const NEED_ATTRIBUTE_DOMAINS = new Set(["climate", "humidifier", "input_datetime", "thermostat", "water_heater"]);

/**
 * `history/history_during_period`: the state at `start` (its `lu` is the
 * start time), then every change up to `end`, in HA's compressed rows.
 */
export function historyDuringPeriod(
  home: RecordedHome,
  q: { startMs: number; endMs: number; entityIds: string[]; minimal: boolean; noAttributes: boolean; significantOnly: boolean; includeStartState: boolean },
): HistoryResult {
  const store = historyOf(home);
  const result: HistoryResult = dict();
  for (const entityId of q.entityIds) {
    const domain = entityId.slice(0, entityId.indexOf("."));
    let points = store.series(entityId);
    if (q.significantOnly && !SIGNIFICANT_ATTRIBUTE_DOMAINS.has(domain)) points = points.filter((p) => p.changedMs === p.updatedMs);
    const needsAttributes = NEED_ATTRIBUTE_DOMAINS.has(domain);
    const withAttributes = !q.noAttributes || needsAttributes;
    const minimal = q.minimal && !needsAttributes;
    const startState = q.includeStartState ? lastAtOrBefore(points, q.startMs) : undefined;
    const rows: HistoryResult[string] = [];
    if (startState && startState.updatedMs < q.startMs) {
      rows.push({ s: startState.state, ...(withAttributes ? { a: startState.attributes } : {}), lu: q.startMs / 1000 });
    }
    for (const p of points) {
      if (p.updatedMs < q.startMs || p.updatedMs > q.endMs) continue;
      const first = rows.length === 0;
      const row: HistoryResult[string][number] = { s: p.state, lu: p.updatedMs / 1000 };
      if (withAttributes && (first || !minimal)) row.a = p.attributes;
      if (p.changedMs !== p.updatedMs && (first || !minimal)) row.lc = p.changedMs / 1000;
      rows.push(row);
    }
    if (rows.length > 0) result[entityId] = rows;
  }
  return result;
}

function lastAtOrBefore(points: HistoryPoint[], t: number): HistoryPoint | undefined {
  let found: HistoryPoint | undefined;
  for (const p of points) {
    if (p.updatedMs > t) break;
    found = p;
  }
  return found;
}

/** Domains HA's logbook leaves out entirely (ALWAYS_CONTINUOUS_DOMAINS). */
const ALWAYS_CONTINUOUS = new Set(["counter", "proximity"]);

/**
 * Whether HA's logbook leaves a state row out as "continuous": counters and
 * proximity always; a sensor when the row has a unit of measurement (the SQL
 * filter) or its registry entry has a state class (`is_sensor_continuous`).
 */
function continuous(home: RecordedHome, entityId: string, attributes: Record<string, unknown>): boolean {
  const domain = entityId.slice(0, entityId.indexOf("."));
  if (ALWAYS_CONTINUOUS.has(domain)) return true;
  if (domain !== "sensor") return false;
  if (Object.hasOwn(attributes, "unit_of_measurement")) return true;
  return home.registries.entities.has(entityId) && Object.hasOwn(attributes, "state_class");
}

/**
 * `logbook/get_events`: state changes in the window, oldest first, in HA's
 * shape (`when`, `state`, `entity_id`, `icon`, and the `context_*` fields
 * that say who or what caused it; no name: clients look names up). With
 * `entity_ids` only those entities, continuous sensors still left out. HA
 * matches `device_ids` against events that name the device, not against the
 * states of its entities, and the simulator records no such events.
 */
export function logbookEvents(home: RecordedHome, q: { startMs: number; endMs: number; entityIds?: string[]; deviceIds?: string[] }): LogbookEntry[] {
  const store = historyOf(home);
  const ids = q.entityIds ?? (q.deviceIds ? [] : store.entityIds());
  const entries: LogbookEntry[] = [];
  for (const entityId of new Set(ids)) {
    for (const p of store.series(entityId)) {
      if (p.changedMs !== p.updatedMs) continue;
      if (p.changedMs < q.startMs || p.changedMs > q.endMs) continue;
      if (continuous(home, entityId, p.attributes)) continue;
      const entry: LogbookEntry = { when: p.changedMs / 1000, state: p.state, entity_id: entityId };
      const icon = own(p.attributes, "icon");
      if (typeof icon === "string") entry.icon = icon;
      if (p.context) Object.assign(entry, contextFields(home, p.context));
      entries.push(entry);
    }
  }
  return entries.sort((a, b) => a.when - b.when);
}

/** What HA's logbook adds about the cause of a change: the user, and the action call that made it. */
function contextFields(home: RecordedHome, context: HassContext): Partial<LogbookEntry> {
  const out: Partial<LogbookEntry> = {};
  if (context.user_id) out.context_user_id = context.user_id;
  const call = home.serviceCalls.get(context.id) ?? (context.parent_id ? home.serviceCalls.get(context.parent_id) : undefined);
  if (call) Object.assign(out, { context_event_type: "call_service", context_domain: call.domain, context_service: call.service });
  return out;
}

/** The statistic types HA knows; a row carries exactly the requested ones, null where a statistic has none. */
export const STATISTIC_TYPES = ["change", "last_reset", "max", "mean", "min", "state", "sum"] as const;
export type StatisticType = (typeof STATISTIC_TYPES)[number];
export type StatisticPeriod = "5minute" | "hour" | "day" | "week" | "month" | "year";

/** The start of the period holding `t` (UTC; weeks start on Monday, as in HA). */
function periodStart(t: number, period: StatisticPeriod): number {
  const d = new Date(t);
  switch (period) {
    case "5minute": return t - (t % 300_000);
    case "hour": return t - (t % 3_600_000);
    case "day": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case "week": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    case "month": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case "year": return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** The start of the period after the one starting at `start`. */
function periodEnd(start: number, period: StatisticPeriod): number {
  const d = new Date(start);
  switch (period) {
    case "5minute": return start + 300_000;
    case "hour": return start + 3_600_000;
    case "day": return start + 86_400_000;
    case "week": return start + 7 * 86_400_000;
    case "month": return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case "year": return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

/** `last_reset` as HA's statistics carry it (epoch ms), from the sensor's attribute; null when it has none. */
function lastResetMs(attributes: Record<string, unknown>): number | null {
  const raw = own(attributes, "last_reset");
  const ms = typeof raw === "string" ? Date.parse(raw) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * `recorder/statistics_during_period`: per period, mean/min/max for
 * measurement sensors (time-weighted over the period) and state/sum/change
 * (and last_reset) for totals, computed from the same history the history
 * command serves. Each row has `start`, `end` and every requested type.
 */
export function statisticsDuringPeriod(
  home: RecordedHome,
  q: { startMs: number; endMs: number; statisticIds: string[]; period: StatisticPeriod; types: readonly StatisticType[] },
): Record<string, StatisticValue[]> {
  const store = historyOf(home);
  const out = dict<StatisticValue[]>();
  for (const id of q.statisticIds) {
    const points = store.series(id);
    const numeric = points.map((p) => ({ t: p.updatedMs, v: Number(p.state) })).filter((p) => Number.isFinite(p.v));
    if (numeric.length === 0) continue;
    const attrs = points[points.length - 1]!.attributes;
    const stateClass = own(attrs, "state_class");
    const total = stateClass === "total_increasing" || stateClass === "total";
    if (stateClass === undefined && own(attrs, "unit_of_measurement") === undefined) continue;
    const lastReset = total ? lastResetMs(attrs) : null;
    const rows: StatisticValue[] = [];
    const baseline = numeric[0]!.v;
    for (let b = periodStart(q.startMs, q.period); b < q.endMs; b = periodEnd(b, q.period)) {
      const bucketEnd = periodEnd(b, q.period);
      const inside = numeric.filter((p) => p.t >= b && p.t < bucketEnd);
      const held = lastBefore(numeric, b);
      if (inside.length === 0 && !held) continue;
      const full: Required<StatisticValue> = { start: b, end: bucketEnd, mean: null, min: null, max: null, sum: null, state: null, change: null, last_reset: null };
      if (total) {
        const last = inside.length > 0 ? inside[inside.length - 1]!.v : held!.v;
        const prev = held?.v ?? inside[0]!.v;
        Object.assign(full, { state: last, sum: round(last - baseline), change: round(last - prev), last_reset: lastReset });
      } else {
        const values = [...(held ? [held.v] : []), ...inside.map((p) => p.v)];
        Object.assign(full, { mean: round(timeWeightedMean(held, inside, b, Math.min(bucketEnd, q.endMs))), min: Math.min(...values), max: Math.max(...values) });
      }
      const row: StatisticValue = { start: full.start, end: full.end };
      for (const t of q.types) (row as unknown as Record<string, unknown>)[t] = full[t];
      rows.push(row);
    }
    if (rows.length > 0) out[id] = rows;
  }
  return out;
}

function lastBefore(points: { t: number; v: number }[], t: number): { t: number; v: number } | undefined {
  let found: { t: number; v: number } | undefined;
  for (const p of points) {
    if (p.t >= t) break;
    found = p;
  }
  return found;
}

function timeWeightedMean(held: { v: number } | undefined, inside: { t: number; v: number }[], from: number, to: number): number {
  let acc = 0;
  let span = 0;
  let value = held?.v;
  let t = held ? from : (inside[0]?.t ?? from);
  for (const p of inside) {
    if (value !== undefined) {
      acc += value * (p.t - t);
      span += p.t - t;
    }
    value = p.v;
    t = p.t;
  }
  if (value !== undefined && to > t) {
    acc += value * (to - t);
    span += to - t;
  }
  return span > 0 ? acc / span : (value ?? 0);
}

const round = (n: number) => Math.round(n * 1000) / 1000;
