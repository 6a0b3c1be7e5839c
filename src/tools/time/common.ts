import type { HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { localIso, systemClock, type Clock } from "../../shared/index.js";
import { haFailure, indexNotReady } from "../ha-failure.js";
import type { ToolOutcome } from "../tool.js";

/** What every time tool is built with. `timeZone` is Home Assistant's; UTC without it. */
export interface TimeToolDeps {
  index: HomeIndex;
  ha: HaAccess;
  clock?: Clock;
  timeZone?: () => Promise<string>;
  /**
   * Days of state history Home Assistant keeps (the recorder's
   * `purge_keep_days`, 10 unless changed). HA does not tell it over its API,
   * so it is assumed; older periods are read from long-term statistics.
   */
  recorderKeepDays?: number;
  /**
   * The name Home Assistant shows every user for an entity, exposed to
   * Assist or not. The Energy dashboard names a device by it (the frontend's
   * `getStatisticLabel`), and the energy tool already shows that device's
   * figures; without it, names come from `index`.
   */
  displayName?: (entityId: string) => string | undefined;
}

/** The recorder's default `purge_keep_days` (`recorder/__init__.py`, CONF_PURGE_KEEP_DAYS). */
export const RECORDER_KEEP_DAYS = 10;

/** The clock, read to the whole second: the times a tool writes carry no milliseconds. */
export const nowOf = (clock: Clock | undefined): number => Math.floor((clock ?? systemClock).now() / 1000) * 1000;

/** Home Assistant's time zone, or UTC when the tool was built without one. */
export const zoneOf = (deps: Pick<TimeToolDeps, "timeZone">): Promise<string> => deps.timeZone?.() ?? Promise.resolve("UTC");

/** A time as the time tools write it: ISO 8601 with the local offset, to the second. */
export const isoIn = (zone: string) => (ms: number): string => localIso(Math.round(ms / 1000) * 1000, zone);

/**
 * Runs a tool body and turns expected errors into failure values: a read HA
 * shows to administrators only is `admin_only`; an unknown area or label
 * keeps its code; anything else from Home Assistant is `ha_unavailable`
 * with HA's reason.
 */
export async function guardedTime<O>(index: HomeIndex | undefined, body: () => Promise<ToolOutcome<O>>): Promise<ToolOutcome<O>> {
  if (index && !index.ready) return indexNotReady();
  try {
    return await body();
  } catch (err) {
    return haFailure(err, { keepUnknown: true });
  }
}
