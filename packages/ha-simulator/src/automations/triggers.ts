import type { HassState } from "../common/index.js";
import { fromLocal, localIso, localParts } from "../common/index.js";
import { nextSunEvent } from "../sun.js";
import { periodMs } from "./config.js";

type Obj = Record<string, unknown>;
const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The fields every trigger's variables start with (`helpers/trigger.py` TriggerData). */
export function triggerData(t: Obj, index: number): Obj {
  return { id: t.id === undefined ? String(index) : String(t.id), idx: String(index), alias: t.alias ?? null };
}

/** Python's `str(timedelta)`: "0:05:00". */
export function timedeltaText(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Whether a state change fires a state trigger (`homeassistant/triggers/state.py`):
 * `from`/`to` (or `not_from`/`not_to`) must match; with any of them given, a
 * change of attributes alone does not count; with `attribute`, its value is
 * compared instead of the state.
 */
export function stateTriggerMatches(t: Obj, oldS: HassState | undefined, newS: HassState | undefined): boolean {
  const attribute = t.attribute === undefined ? undefined : String(t.attribute);
  const value = (s: HassState | undefined) => (s === undefined ? null : attribute === undefined ? s.state : (s.attributes[attribute] ?? null));
  const oldV = value(oldS);
  const newV = value(newS);
  const constrained = ["from", "to", "not_from", "not_to"].some((k) => Object.hasOwn(t, k));
  const matchAll = !constrained;
  if (attribute === undefined && !matchAll && oldS && newS && oldS.state === newS.state) return false;
  if (attribute !== undefined && oldV === newV) return false;
  const matches = (key: string, notKey: string, v: unknown) => {
    if (t[key] !== undefined && t[key] !== null && !list(t[key]).includes(v)) return false;
    if (t[notKey] !== undefined && list(t[notKey]).includes(v)) return false;
    return true;
  };
  if (!matches("from", "not_from", oldV) || !matches("to", "not_to", newV)) return false;
  return matchAll || oldV !== newV;
}

export function stateTriggerVariables(t: Obj, index: number, entityId: string, oldS: HassState | undefined, newS: HassState | undefined): Obj {
  const forMs = periodMs(t.for);
  return {
    ...triggerData(t, index),
    platform: "state",
    entity_id: entityId,
    from_state: oldS ?? null,
    to_state: newS ?? null,
    for: forMs === undefined ? null : timedeltaText(forMs),
    attribute: t.attribute ?? null,
    description: `state of ${entityId}`,
  };
}

function inRange(t: Obj, s: HassState | undefined, lookup: (id: string) => HassState | undefined): boolean {
  if (!s) return false;
  const raw = t.attribute === undefined ? s.state : s.attributes[String(t.attribute)];
  const v = Number(raw);
  if (raw === null || raw === undefined || raw === "" || !Number.isFinite(v)) return false;
  const bound = (b: unknown) => (typeof b === "number" ? b : b === undefined ? undefined : Number(lookup(String(b))?.state));
  const below = bound(t.below);
  const above = bound(t.above);
  return (below === undefined || v < below) && (above === undefined || v > above);
}

/** A numeric_state trigger fires when the value enters the range from outside it (`numeric_state.py`'s armed entities). */
export function numericTriggerMatches(t: Obj, oldS: HassState | undefined, newS: HassState | undefined, lookup: (id: string) => HassState | undefined): boolean {
  return inRange(t, newS, lookup) && !inRange(t, oldS, lookup);
}

export function numericTriggerVariables(t: Obj, index: number, entityId: string, oldS: HassState | undefined, newS: HassState | undefined): Obj {
  const forMs = periodMs(t.for);
  return {
    ...triggerData(t, index),
    platform: "numeric_state",
    entity_id: entityId,
    below: t.below ?? null,
    above: t.above ?? null,
    from_state: oldS ?? null,
    to_state: newS ?? null,
    for: forMs === undefined ? null : timedeltaText(forMs),
    description: `numeric state of ${entityId}`,
  };
}

/**
 * When time and sun triggers fire in (fromMs, toMs]: local wall-clock times
 * (`at`, or an input_datetime's time) and today's sunrise or sunset with its offset.
 */
export function dueTimes(t: Obj, fromMs: number, toMs: number, tz: string, place: { latitude: number; longitude: number }, lookup: (id: string) => HassState | undefined): number[] {
  const out: number[] = [];
  const days = [fromMs, toMs].map((ms) => localParts(ms, tz));
  const first = days[0]!;
  const spanDays = Math.min(3, Math.ceil((toMs - fromMs) / 86_400_000) + 1);
  if (t.trigger === "time") {
    for (const at of list(t.at)) {
      let hms: number[] | undefined;
      const text = String(at);
      if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(text)) hms = text.split(":").map(Number);
      else {
        const e = lookup(text);
        if (e?.attributes.has_time) hms = [Number(e.attributes.hour ?? 0), Number(e.attributes.minute ?? 0), Number(e.attributes.second ?? 0)];
      }
      if (!hms) continue;
      for (let d = 0; d <= spanDays; d++) {
        const when = fromLocal(tz, first.year, first.month, first.day + d, hms[0], hms[1], hms[2] ?? 0);
        if (when > fromMs && when <= toMs) out.push(when);
      }
    }
  }
  if (t.trigger === "sun") {
    const offset = periodMs(t.offset) ?? 0;
    let cursor = fromMs - offset - 60_000;
    for (let n = 0; n < 4; n++) {
      const e = nextSunEvent(cursor, t.event === "sunrise" ? "sunrise" : "sunset", place.latitude, place.longitude);
      if (e === undefined) break;
      const when = e + offset;
      if (when > toMs) break;
      if (when > fromMs) out.push(when);
      cursor = e + 60_000;
    }
  }
  return out.sort((a, b) => a - b);
}

export function timeTriggerVariables(t: Obj, index: number, atMs: number, tz: string): Obj {
  if (t.trigger === "sun") {
    const offset = periodMs(t.offset);
    return { ...triggerData(t, index), platform: "sun", event: t.event, offset: offset === undefined ? null : timedeltaText(offset), description: offset ? `${String(t.event)} with offset` : String(t.event) };
  }
  return { ...triggerData(t, index), platform: "time", now: localIso(atMs, tz), description: "time", entity_id: null };
}
