import type { HassContext, HistoryResult, LogbookEntry } from "../common/index.js";
import { dict, own } from "../common/index.js";
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
