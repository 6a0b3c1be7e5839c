import { z } from "zod";
import type { HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { iso } from "./common.js";

/**
 * Output fields of the tools that answer from the index's copy of the
 * states. They come first in the output, so a model that reads only the
 * start of a long answer still sees them.
 */
export const freshnessFields = {
  stale: z.literal(true).optional().describe("Only while HA is unreachable: states are as last seen."),
  ha_last_seen: z.string().optional().describe("With stale: ISO time HA was last reachable."),
};

export interface Freshness {
  stale?: true;
  ha_last_seen?: string;
}

/** Empty while HA is connected; otherwise `stale: true` and when HA was last seen. */
export function freshness(ha: Pick<HaAccess, "status" | "lastSeenAt">, index: HomeIndex): Freshness {
  if (ha.status === "connected") return {};
  // Before any connection drop the index's last sync is the best time there is.
  const seen = ha.lastSeenAt ?? index.stats().lastSyncAt;
  return seen === null || seen === undefined ? { stale: true } : { stale: true, ha_last_seen: iso(seen) };
}

/** The first line of a rendered text when it is stale, for the model that reads only the text. */
export function staleLine(f: Freshness): string | undefined {
  if (!f.stale) return undefined;
  const since = f.ha_last_seen ? ` since ${f.ha_last_seen}` : "";
  return `STALE: Home Assistant is unreachable${since}; these are the last known states, not live ones.`;
}
