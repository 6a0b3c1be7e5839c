import type { HassContext } from "../common/index.js";
import type { EnergyMeters } from "../energy/index.js";
import type { House, HouseEntity } from "../house-schema.js";
import { createRng, hashString, type Rng } from "../random.js";
import { stableMs } from "../time.js";
import { ALTERNATES, classify } from "./classify.js";
import { sunHistory } from "./sun-history.js";

/** One recorded state, as the recorder keeps it. */
export interface HistoryPoint {
  state: string;
  attributes: Record<string, unknown>;
  changedMs: number;
  updatedMs: number;
  /** Only for live changes: who or what made them. */
  context?: HassContext;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;
export const HISTORY_SPAN_MS = 24 * HOUR;

/**
 * 24 h of plausible past for one entity, ending with its current state at
 * `changedMs`: numeric sensors drift back from today's value, switches and
 * binary sensors toggle a few times, flapping entities drop to
 * `unavailable` again and again, and outages blank out their window.
 */
export function generateHistory(o: { house: House; entity: HouseEntity; changedMs: number; startedMs: number; meters?: EnergyMeters }): HistoryPoint[] {
  const { entity: e, changedMs } = o;
  const windowStart = o.startedMs - HISTORY_SPAN_MS;
  const scripted = o.house.history?.scripted.find((s) => s.entity_id === e.entity_id);
  if (scripted) {
    // Written-out history replaces the generated kind; its last change is the current state.
    return [...scripted.changes]
      .sort((a, b) => a.at - b.at)
      .map((c) => {
        const t = stableMs(c.at);
        return { state: c.state, attributes: c.attributes ?? attributesFor(e, c.state), changedMs: t, updatedMs: t };
      });
  }
  const rng = createRng(hashString(`history:${e.entity_id}`));
  const kind = classify(e.entity_id, e.state, e.attributes);
  let points: { state: string; t: number }[];
  if (o.meters?.has(e.entity_id)) points = meterReadings(o.meters, e.entity_id, windowStart, changedMs, o.startedMs);
  else if (e.entity_id === "sun.sun") points = sunHistory(o.house, windowStart, changedMs, e.state);
  else if (o.house.history?.flapping.includes(e.entity_id)) points = flapping(rng, e.state, windowStart, changedMs);
  else if (kind === "numeric" || kind === "total") points = drift(rng, e, windowStart, changedMs, kind === "total");
  else if (kind === "toggle") points = alternate(rng, e.state, [e.state === "on" ? "off" : "on"], windowStart, changedMs, e.entity_id.startsWith("binary_sensor.") ? [4, 18] : [2, 7]);
  else if (kind === "alternating") {
    const domain = e.entity_id.slice(0, e.entity_id.indexOf("."));
    points = alternate(rng, e.state, (ALTERNATES.get(domain) ?? []).filter((s) => s !== e.state), windowStart, changedMs, [2, 5]);
  } else points = [{ state: e.state, t: changedMs }];

  for (const outage of o.house.history?.outages ?? []) {
    if (outage.entity_id !== e.entity_id) continue;
    const from = o.startedMs - outage.start_hours_ago * HOUR;
    const to = Math.min(changedMs - MINUTE, from + outage.hours * HOUR);
    if (to > from) points = blank(points, from, to);
  }
  return points.map((p) => {
    const t = stableMs(p.t);
    return { state: p.state, attributes: attributesFor(e, p.state), changedMs: t, updatedMs: t };
  });
}

/** A modelled meter, read every quarter of an hour; equal readings in a row are one state. */
function meterReadings(meters: EnergyMeters, entityId: string, windowStart: number, changedMs: number, startedMs: number): { state: string; t: number }[] {
  const quarter = 15 * MINUTE;
  const out: { state: string; t: number }[] = [];
  for (let t = Math.floor((windowStart - HOUR) / quarter) * quarter; t < changedMs; t += quarter) {
    const state = meters.stateText(entityId, t);
    if (out.at(-1)?.state !== state) out.push({ state, t });
  }
  // The reading at start is the entity's current state.
  const current = meters.stateText(entityId, startedMs);
  if (out.at(-1)?.state !== current) out.push({ state: current, t: changedMs });
  return out;
}

/** A random walk backwards from the current value, pulled towards it so the day looks steady. */
function drift(rng: Rng, e: HouseEntity, windowStart: number, changedMs: number, total: boolean): { state: string; t: number }[] {
  const current = Number(e.state);
  const decimals = (e.state.split(".")[1] ?? "").length;
  const unit = String(e.attributes.unit_of_measurement ?? "");
  const step = stepFor(unit, current, decimals);
  const nonNegative = current >= 0;
  const out: { state: string; t: number }[] = [{ state: e.state, t: changedMs }];
  let v = current;
  let t = changedMs;
  const minGap = total ? 10 : 4;
  const maxGap = total ? 40 : 30;
  while (t >= windowStart) {
    t -= rng.int(minGap, maxGap) * MINUTE;
    let prev = total ? v - rng.next() * step * 3 : v + (current - v) * 0.08 + (rng.next() * 2 - 1) * step;
    if (nonNegative) prev = Math.max(0, prev);
    if (unit === "%") prev = Math.min(100, prev);
    let text = prev.toFixed(decimals);
    if (text === out[out.length - 1]!.state) text = (prev + (total ? -1 : 1) * 10 ** -decimals).toFixed(decimals);
    if (total && Number(text) < 0) break;
    v = Number(text);
    out.push({ state: text, t });
  }
  return out.reverse();
}

function stepFor(unit: string, value: number, decimals: number): number {
  const minimum = 10 ** -decimals;
  const byUnit = new Map(Object.entries({ "°C": 0.15, "°F": 0.3, "%": 1.2, hPa: 0.3, dBm: 1.5, lx: Math.abs(value) * 0.15 + 5, W: Math.abs(value) * 0.12 + 2 }));
  return Math.max(minimum, byUnit.get(unit) ?? Math.abs(value) * 0.02 + minimum);
}

/** `n` changes spread over the day, cycling through `others` and back to `current` at `changedMs`. */
function alternate(rng: Rng, current: string, others: string[], windowStart: number, changedMs: number, range: [number, number]): { state: string; t: number }[] {
  if (others.length === 0 || changedMs <= windowStart) return [{ state: current, t: changedMs }];
  const n = rng.int(range[0], range[1]);
  const times = Array.from({ length: n }, () => windowStart + rng.next() * (changedMs - windowStart - MINUTE)).sort((a, b) => a - b);
  const out: { state: string; t: number }[] = [{ state: current, t: changedMs }];
  let i = 0;
  // Walk backwards: before each change the entity was in another state.
  for (let k = times.length - 1; k >= 0; k--) {
    const prevState: string = out[out.length - 1]!.state === current ? others[i++ % others.length]! : current;
    out.push({ state: prevState, t: times[k]! });
  }
  // The state held at the start of the window began earlier.
  const first = out[out.length - 1]!;
  out.push({ state: first.state === current ? others[0]! : current, t: windowStart - rng.int(10, 600) * MINUTE });
  return out.reverse();
}

/** At least a dozen drops to `unavailable`, the last one ending at `changedMs`. */
function flapping(rng: Rng, current: string, windowStart: number, changedMs: number): { state: string; t: number }[] {
  const n = rng.int(12, 16);
  const slot = (changedMs - windowStart) / n;
  const out: { state: string; t: number }[] = [{ state: current, t: windowStart - 3 * HOUR }];
  for (let k = 0; k < n; k++) {
    const end = k === n - 1 ? changedMs : windowStart + (k + 1) * slot - rng.int(5, 40) * MINUTE;
    const start = end - rng.int(2, 25) * MINUTE;
    out.push({ state: "unavailable", t: start }, { state: current, t: end });
  }
  return out;
}

/** Replaces whatever happened in [from, to] by `unavailable`, resuming with the state that would have held at `to`. */
function blank(points: { state: string; t: number }[], from: number, to: number): { state: string; t: number }[] {
  const before = points.filter((p) => p.t < from);
  const after = points.filter((p) => p.t > to);
  const heldAtTo = [...points].reverse().find((p) => p.t <= to);
  const out = [...before, { state: "unavailable", t: from }];
  if (heldAtTo && (after.length === 0 || after[0]!.t > to)) out.push({ state: heldAtTo.state, t: to });
  return [...out, ...after];
}

function attributesFor(e: HouseEntity, state: string): Record<string, unknown> {
  if (state === e.state) return e.attributes;
  if (e.entity_id.startsWith("light.")) {
    if (state === "off") return { ...e.attributes, brightness: null, color_mode: null, ...("color_temp_kelvin" in e.attributes ? { color_temp_kelvin: null } : {}) };
    const ct = (e.attributes.supported_color_modes as string[] | undefined)?.includes("color_temp");
    return { ...e.attributes, brightness: 180, color_mode: ct ? "color_temp" : e.attributes.color_mode, ...(ct ? { color_temp_kelvin: 2700 } : {}) };
  }
  if (e.entity_id.startsWith("cover.") && "current_position" in e.attributes) return { ...e.attributes, current_position: state === "closed" ? 0 : 100 };
  return e.attributes;
}
