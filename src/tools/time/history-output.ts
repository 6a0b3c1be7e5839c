import { localTime } from "../../shared/index.js";
import type { HistoryEntityOut } from "./history-schema.js";
import type { EntityHistory } from "./history-summary.js";
import { duration, plural, withUnit } from "./words.js";

/** The wire form of one entity's period; `keepChanges` and `keepBuckets` are what a token budget leaves of each list (the most recent). */
export function entityOut(e: EntityHistory, o: { keepChanges: number; keepBuckets: number; iso: (ms: number) => string; now: number }): HistoryEntityOut {
  const changes = e.held.slice(Math.max(0, e.held.length - o.keepChanges)).map((h) => ({
    state: h.state,
    start: o.iso(h.startMs),
    end: h.endMs === null ? null : o.iso(h.endMs),
    duration_s: Math.round(((h.endMs ?? o.now) - h.startMs) / 1000),
  }));
  const out: HistoryEntityOut = {
    entity_id: e.entityId,
    name: e.name,
    source: e.source,
    time_in_state: e.timeIn.map((t) => ({ state: t.state, duration_s: Math.round(t.ms / 1000) })),
    changes_total: e.changeCount,
    changes: o.keepChanges > 0 ? changes : [],
  };
  if (e.numeric) {
    const { buckets, ...n } = e.numeric;
    out.numeric = {
      unit: e.unit,
      ...n,
      buckets: buckets.slice(Math.max(0, buckets.length - o.keepBuckets)).map((b) => ({ start: o.iso(b.startMs), end: o.iso(b.endMs), min: b.min, mean: b.mean, max: b.max })),
    };
    if (o.keepBuckets <= 0) out.numeric.buckets = [];
  }
  return out;
}

/**
 * One sentence about an entity's period: what it held and for how long,
 * how often it changed and what it is now; or a number's range and mean.
 */
export function entityLine(e: EntityHistory, at: { now: number; zone: string; toNow: boolean }): string {
  const who = `${e.name} (${e.entityId})`;
  const n = e.numeric;
  if (n) {
    const from = e.source === "statistics" ? " (long-term statistics, hourly)" : "";
    const grew = n.change !== undefined ? `, grew by ${withUnit(n.change, e.unit, 2)}` : "";
    return `${who}${from}: ${withUnit(n.min, e.unit)} to ${withUnit(n.max, e.unit)}, mean ${withUnit(n.mean, e.unit)}; from ${withUnit(n.first, e.unit)} to ${withUnit(n.last, e.unit)}${grew}.`;
  }
  if (e.source === "statistics" || e.held.length === 0) return `${who}: nothing recorded in this period.`;
  if (e.timeIn.length === 1 && e.changeCount === 0) return `${who}: ${e.held[0]!.state} the whole period.`;
  const shares = e.timeIn.slice(0, 4).map((t) => `${t.state} ${duration(t.ms)}`);
  const rest = e.timeIn.length > 4 ? `, ${plural(e.timeIn.length - 4, "other state")}` : "";
  const last = e.held.at(-1)!;
  const now = at.toNow ? `; now ${last.state} since ${localTime(last.startMs, at.now, at.zone)}` : `; ${last.state} at the end`;
  return `${who}: ${shares.join(", ")}${rest}; changed ${plural(e.changeCount, "time")}${now}.`;
}
