import type { House, HouseEntity } from "../house-schema.js";
import { hashString } from "../random.js";
import { classify } from "./classify.js";
import { lastSunChange } from "./sun-history.js";

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * When the entity's current state began. History ends with this state, so
 * the two always agree: outage entities came back after their outage,
 * flapping entities flipped recently, and entities that do not move during a
 * day have held their state since before the 24 h window.
 */
export function initialChangedMs(house: House, e: Pick<HouseEntity, "entity_id" | "state" | "attributes">, nowMs: number): number {
  const h = hashString(e.entity_id);
  const history = house.history;
  const scripted = history?.scripted.find((s) => s.entity_id === e.entity_id);
  if (scripted) return Math.max(...scripted.changes.map((c) => c.at));
  if (e.entity_id === "sun.sun") return lastSunChange(house, nowMs);
  // A modelled meter reads a little more every few minutes.
  if (house.energy?.meters.some((m) => m.statistic_id === e.entity_id)) return nowMs - (1 + (h % 4)) * MINUTE;
  if (history?.flapping.includes(e.entity_id)) return nowMs - (5 + (h % 40)) * MINUTE;
  const kind = classify(e.entity_id, e.state, e.attributes);
  const spread = kind === "static" ? nowMs - 25 * HOUR - (h % (72 * 60)) * MINUTE : nowMs - (2 + (h % (kind === "numeric" ? 25 : 9 * 60))) * MINUTE;
  const outage = history?.outages.find((o) => o.entity_id === e.entity_id);
  if (outage) {
    const outageEnd = nowMs - (outage.start_hours_ago - outage.hours) * HOUR;
    if (spread <= outageEnd) return Math.min(nowMs - MINUTE, outageEnd + (1 + (h % 20)) * MINUTE);
  }
  return spread;
}
