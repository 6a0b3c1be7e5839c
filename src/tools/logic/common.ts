import { describeRead, HaAdminOnlyError, type CallerHa, type HaAccess, type HaRequest } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { systemClock, type Clock } from "../../shared/index.js";
import { haFailure, indexNotReady } from "../ha-failure.js";
import { fail, type ToolOutcome } from "../tool.js";

/** What the automation tools are built from. */
export interface LogicDeps {
  /**
   * The whole home, not the view exposed to Assist: Assist exposes no
   * automation by default, and these tools are for administrators, who see
   * every automation and entity in Home Assistant.
   */
  index: HomeIndex;
  ha: HaAccess;
  clock?: Clock;
  /** Home Assistant's time zone, for the times people read. */
  timeZone?: () => Promise<string>;
  /** allow_automation_edits: automation_save may write. */
  automationEdits?: boolean;
}

export const clockOf = (deps: LogicDeps): Clock => deps.clock ?? systemClock;
export const zoneOf = (deps: LogicDeps): Promise<string> => deps.timeZone?.() ?? Promise.resolve("UTC");

/**
 * Runs a tool body for a caller: refused at once (`admin_only`) when
 * Home Assistant would refuse them one of the tool's reads, then run with
 * Home Assistant's failures turned into values.
 */
export async function forCaller<O>(args: { deps: LogicDeps; principal: { isAdmin: boolean }; needs: readonly HaRequest[] }, body: (ha: CallerHa) => Promise<ToolOutcome<O>>): Promise<ToolOutcome<O>> {
  const ha = args.deps.ha.forCaller(args.principal);
  const refused = args.needs.find((request) => !ha.allows(request));
  if (refused) return fail("admin_only", new HaAdminOnlyError(describeRead(refused)).message);
  if (!args.deps.index.ready) return indexNotReady();
  try {
    return await body(ha);
  } catch (err) {
    return haFailure(err, { keepUnknown: false });
  }
}
