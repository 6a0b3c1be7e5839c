import type { House } from "../house-schema.js";
import { hashString } from "../random.js";

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * When the entity's current state began. History ends with this state, so
 * the two always agree: outage entities came back after their outage, and
 * flapping entities flipped recently.
 */
export function initialChangedMs(house: House, entityId: string, nowMs: number): number {
  const h = hashString(entityId);
  const history = house.history;
  if (history?.flapping.includes(entityId)) return nowMs - (5 + (h % 40)) * MINUTE;
  // Between 2 minutes and 9 hours ago, spread by entity.
  const spread = nowMs - (2 + (h % (9 * 60))) * MINUTE;
  const outage = history?.outages.find((o) => o.entity_id === entityId);
  if (outage) {
    const outageEnd = nowMs - (outage.start_hours_ago - outage.hours) * HOUR;
    if (spread <= outageEnd) return Math.min(nowMs - MINUTE, outageEnd + (1 + (h % 20)) * MINUTE);
  }
  return spread;
}
