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
  stale: z
    .literal(true)
    .optional()
    .describe("Set while HA is unreachable, and after it comes back until the index has caught up (a few seconds): states may be out of date, entities may be gone."),
  stale_reason: z.enum(["ha_unreachable", "catching_up"]).optional().describe("With stale: why. catching_up: HA is back and its states are being fetched again."),
  ha_last_seen: z.string().optional().describe("With stale: ISO time the connection to HA was lost, so when these states were last known to be live."),
};

export interface Freshness {
  stale?: true;
  stale_reason?: "ha_unreachable" | "catching_up";
  ha_last_seen?: string;
}

/**
 * Empty while HA is connected and the index is in step with it; otherwise
 * `stale: true`, why, and when HA was last seen. After a reconnect the index
 * holds the home as it was before the drop until its resync is in, and a
 * restarted HA may have removed any of it.
 */
/** `at` writes the time (see timesIn; UTC by default). */
export function freshness(ha: Pick<HaAccess, "status" | "lastSeenAt">, index: Pick<HomeIndex, "catchingUpSince" | "stats">, at: (ms: number) => string = iso): Freshness {
  if (ha.status === "connected") {
    const since = index.catchingUpSince;
    return since === null ? {} : { stale: true, stale_reason: "catching_up", ha_last_seen: at(since) };
  }
  // Before any connection drop the index's last sync is the best time there is.
  const seen = ha.lastSeenAt ?? index.stats().lastSyncAt;
  return seen === null || seen === undefined ? { stale: true, stale_reason: "ha_unreachable" } : { stale: true, stale_reason: "ha_unreachable", ha_last_seen: at(seen) };
}

/** The first line of a rendered text when it is stale, for the model that reads only the text. */
export function staleLine(f: Freshness): string | undefined {
  if (!f.stale) return undefined;
  const since = f.ha_last_seen ? ` since ${f.ha_last_seen}` : "";
  if (f.stale_reason === "catching_up")
    return `STALE: Home Assistant is back after a lost connection${since}, and its states are still being fetched again; some of these may be out of date or gone.`;
  return `STALE: Home Assistant is unreachable${since}; these are the last known states, not live ones.`;
}
