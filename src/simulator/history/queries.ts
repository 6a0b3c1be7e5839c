import type { HassContext, HistoryResult, LogbookEntry, StatisticValue } from "../../ha/types.js";
import type { HomeModel } from "../home.js";
import type { HistoryPoint } from "./generate.js";
import { historyOf } from "./store.js";

/** Domains whose attribute-only changes HA's recorder counts as significant. */
const SIGNIFICANT_ATTRIBUTE_DOMAINS = new Set(["climate", "device_tracker", "humidifier", "thermostat", "water_heater"]);
/** Domains whose rows keep their attributes even with `no_attributes` or `minimal_response`. */
const NEED_ATTRIBUTE_DOMAINS = new Set(["climate", "humidifier", "input_datetime", "thermostat", "water_heater"]);

/**
 * `history/history_during_period`: the state at `start` (its `lu` is the
 * start time), then every change up to `end`, in HA's compressed rows.
 */
export function historyDuringPeriod(
  home: HomeModel,
  q: { startMs: number; endMs: number; entityIds: string[]; minimal: boolean; noAttributes: boolean; significantOnly: boolean; includeStartState: boolean },
): HistoryResult {
  const store = historyOf(home);
  const result: HistoryResult = {};
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

/** Sensors with a unit or state class are "continuous": HA's logbook leaves them out. */
function continuous(entityId: string, attributes: Record<string, unknown>): boolean {
  return entityId.startsWith("sensor.") && (attributes.unit_of_measurement !== undefined || attributes.state_class !== undefined);
}

/** `logbook/get_events`: state changes in the window, oldest first, for the given entities or devices (or all). */
export function logbookEvents(home: HomeModel, q: { startMs: number; endMs: number; entityIds?: string[]; deviceIds?: string[] }): LogbookEntry[] {
  const store = historyOf(home);
  let ids: string[];
  if (q.entityIds || q.deviceIds) {
    const set = new Set(q.entityIds ?? []);
    const devices = new Set(q.deviceIds ?? []);
    for (const e of home.registries.entities.values()) if (e.device_id && devices.has(e.device_id)) set.add(e.entity_id);
    ids = [...set];
  } else ids = store.entityIds();
  const entries: LogbookEntry[] = [];
  for (const entityId of ids) {
    const points = store.series(entityId);
    for (let i = 0; i < points.length; i++) {
      const p = points[i]!;
      if (p.changedMs !== p.updatedMs) continue;
      if (p.changedMs < q.startMs || p.changedMs > q.endMs) continue;
      if (continuous(entityId, p.attributes) && !q.entityIds?.includes(entityId)) continue;
      const entry: LogbookEntry = { when: p.changedMs / 1000, state: p.state, entity_id: entityId };
      const name = p.attributes.friendly_name;
      if (typeof name === "string") entry.name = name;
      const icon = p.attributes.icon;
      if (typeof icon === "string") entry.icon = icon;
      if (p.context) Object.assign(entry, contextFields(home, p.context));
      entries.push(entry);
    }
  }
  return entries.sort((a, b) => a.when - b.when);
}

/** What HA's logbook adds about the cause of a change: the user, and the service call that made it. */
function contextFields(home: HomeModel, context: HassContext): Partial<LogbookEntry> {
  const out: Partial<LogbookEntry> = { context_id: context.id };
  if (context.user_id) out.context_user_id = context.user_id;
  const call = home.serviceCalls.get(context.id) ?? (context.parent_id ? home.serviceCalls.get(context.parent_id) : undefined);
  if (call) Object.assign(out, { context_event_type: "call_service", context_domain: call.domain, context_service: call.service });
  return out;
}

const PERIOD_MS: Record<string, number> = { "5minute": 300_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };

/**
 * `recorder/statistics_during_period`: per period, mean/min/max for
 * measurement sensors (time-weighted over the period) and state/sum/change
 * for totals, computed from the same history the history command serves.
 */
export function statisticsDuringPeriod(
  home: HomeModel,
  q: { startMs: number; endMs: number; statisticIds: string[]; period: string; types?: string[] },
): Record<string, StatisticValue[]> {
  const store = historyOf(home);
  const size = PERIOD_MS[q.period] ?? (q.period === "month" ? 30 * 86_400_000 : 3_600_000);
  const out: Record<string, StatisticValue[]> = {};
  for (const id of q.statisticIds) {
    const points = store.series(id);
    const numeric = points.map((p) => ({ t: p.updatedMs, v: Number(p.state) })).filter((p) => Number.isFinite(p.v));
    if (numeric.length === 0) continue;
    const attrs = points[points.length - 1]!.attributes;
    const total = attrs.state_class === "total_increasing" || attrs.state_class === "total";
    if (attrs.state_class === undefined && attrs.unit_of_measurement === undefined) continue;
    const rows: StatisticValue[] = [];
    const firstBucket = Math.floor(q.startMs / size) * size;
    const baseline = numeric[0]!.v;
    for (let b = firstBucket; b < q.endMs; b += size) {
      const bucketEnd = b + size;
      const inside = numeric.filter((p) => p.t >= b && p.t < bucketEnd);
      const held = lastBefore(numeric, b);
      if (inside.length === 0 && !held) continue;
      const row: StatisticValue = { start: b, end: bucketEnd };
      if (total) {
        const last = inside.length > 0 ? inside[inside.length - 1]!.v : held!.v;
        const prev = held?.v ?? inside[0]!.v;
        Object.assign(row, { state: last, sum: round(last - baseline), change: round(last - prev) });
      } else {
        const values = [...(held ? [held.v] : []), ...inside.map((p) => p.v)];
        Object.assign(row, { mean: round(timeWeightedMean(held, inside, b, Math.min(bucketEnd, q.endMs))), min: Math.min(...values), max: Math.max(...values) });
      }
      rows.push(q.types ? filterTypes(row, q.types) : row);
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

function filterTypes(row: StatisticValue, types: string[]): StatisticValue {
  const out: StatisticValue = { start: row.start, end: row.end };
  for (const t of types) if (t in row) (out as unknown as Record<string, unknown>)[t] = (row as unknown as Record<string, unknown>)[t];
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
