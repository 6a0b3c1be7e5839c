import { z } from "zod";
import type { EntityFilter, HomeIndex } from "../../indexer/index.js";
import { HaAdminOnlyError } from "../../ha/index.js";
import { describeError, localIso, localTime } from "../../shared/index.js";
import { haFailure, indexNotReady } from "../ha-failure.js";
import { name } from "../limits.js";
import type { ToolOutcome, ToolCallContext } from "../tool.js";

/**
 * Runs a tool body and turns expected errors into failure values: a read
 * Home Assistant shows to administrators only is `admin_only`; unknown
 * filter values keep their own code (`unknown_area`, …); anything else from
 * Home Assistant becomes `ha_unavailable` with HA's reason.
 */
export async function guarded<O>(index: HomeIndex, body: () => Promise<ToolOutcome<O>> | ToolOutcome<O>): Promise<ToolOutcome<O>> {
  if (!index.ready) return indexNotReady();
  try {
    return await body();
  } catch (err) {
    return haFailure(err, { keepUnknown: true });
  }
}

/**
 * For one optional part (history, logbook…): a catch handler that records in
 * `notes` why the part could not be read and answers with `fallback`, so the
 * rest of the answer still arrives.
 */
export function noteFailure<T>(notes: string[], part: string, fallback: T): (err: unknown) => T {
  return (err) => {
    // Not a part that failed: the person may not read it. The whole answer says so, unless the tool left that part out itself.
    if (err instanceof HaAdminOnlyError) throw err;
    notes.push(`${part} could not be read from Home Assistant: ${describeError(err)}`);
    return fallback;
  };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * How the tools write a time: ISO 8601 with Home Assistant's UTC offset, to
 * the second, cut rather than rounded so that a time seen is never later
 * than it was ("2026-12-07T18:24:00+01:00"); plain UTC when a tool was
 * built without a zone.
 */
export const timesIn = (zone: string | undefined): ((ms: number) => string) => (zone ? (ms) => localIso(Math.floor(ms / 1000) * 1000, zone) : iso);

/** "03:12 CET" for findings, in Home Assistant's time zone; the date is added when it is not the day of `now`. */
export const shortTime = (ms: number, now: number, zone: string): string => localTime(ms, now, zone);

/** Filters shared by the tools that select entities. */
export const selectorFields = {
  domain: name().optional().describe('e.g. "light"'),
  area: name().optional().describe("Area id, name or alias"),
  floor: name().optional().describe("Floor id, name or alias"),
  label: name().optional().describe("Label id or name"),
  device_class: name().optional().describe('e.g. "motion"'),
  state: name().optional().describe('Current state, e.g. "on"'),
  include_hidden: z.boolean().default(false).describe("Also hidden, disabled and diagnostic ones"),
};

/** The selector fields as they arrive on the wire (snake_case), plus the optional id and device selectors. */
interface SelectorArgs {
  entity_ids?: string[];
  device?: string;
  domain?: string;
  area?: string;
  floor?: string;
  label?: string;
  device_class?: string;
  state?: string;
  include_hidden: boolean;
}

/** Maps a tool's selector arguments to the index's filter, in one place for every tool. */
export function filterOf(args: SelectorArgs): EntityFilter {
  return {
    entityIds: args.entity_ids,
    device: args.device,
    domain: args.domain,
    area: args.area,
    floor: args.floor,
    label: args.label,
    deviceClass: args.device_class,
    state: args.state,
    includeHidden: args.include_hidden,
  };
}

/**
 * Counts finished parts of a tool's work and tells the caller after each one.
 * A progress message that cannot be delivered (the caller went away) is not
 * the tool's failure, so it is dropped.
 */
export function progressOf(ctx: ToolCallContext, total: number): (message: string) => <T>(value: T) => T {
  let done = 0;
  return (message) => (value) => {
    done += 1;
    ctx.progress({ progress: done, total, message }).catch(() => undefined);
    return value;
  };
}
