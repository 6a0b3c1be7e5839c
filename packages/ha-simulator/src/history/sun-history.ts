import type { House } from "../house-schema.js";
import { sunEvents as between, sunIsUp } from "../sun.js";

const HOUR = 3_600_000;

/** Sunrises and sunsets between two instants, in order, as `sun.sun` states. */
function sunEvents(house: House, fromMs: number, toMs: number): { at: number; state: string }[] {
  return between(fromMs, toMs, house.config.latitude, house.config.longitude).map((e) => ({ at: e.at, state: e.event === "sunrise" ? "above_horizon" : "below_horizon" }));
}

/** When `sun.sun` last changed before `nowMs`: the latest sunrise or sunset (a day ago in polar day or night). */
export function lastSunChange(house: House, nowMs: number): number {
  return sunEvents(house, nowMs - 36 * HOUR, nowMs).at(-1)?.at ?? nowMs - 25 * HOUR;
}

/** `sun.sun` over the history window: above or below the horizon, changing at each sunrise and sunset. */
export function sunHistory(house: House, windowStart: number, changedMs: number, current: string): { state: string; t: number }[] {
  const { latitude, longitude } = house.config;
  // Two days before the window as well: automations that ran then read the sun.
  const from = windowStart - 48 * HOUR;
  const points = [{ state: sunIsUp(from, latitude, longitude) ? "above_horizon" : "below_horizon", t: from }];
  for (const e of sunEvents(house, from, changedMs - 1)) points.push({ state: e.state, t: e.at });
  points.push({ state: current, t: changedMs });
  return points.filter((p, i) => i === 0 || p.state !== points[i - 1]!.state);
}
