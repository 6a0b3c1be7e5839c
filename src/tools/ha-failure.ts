import { HaAdminOnlyError } from "../ha/index.js";
import { HaAgentError } from "../shared/index.js";
import { fail, type ToolOutcome } from "./tool.js";

/** The outcome for a call that arrives before the index has its first picture of the home. */
export function indexNotReady(): ToolOutcome<never> {
  return fail("index_not_ready", "The home index is still loading from Home Assistant; try again in a few seconds.");
}

/**
 * Home Assistant's failure, thrown inside a tool body, as the value the
 * caller reads: a read HA shows administrators only is `admin_only`; with
 * `keepUnknown`, an unknown filter value keeps its own code
 * (`unknown_area`, …); anything else from HA is `ha_unavailable` with HA's
 * reason. What is not HA's failure is a bug and is rethrown.
 */
export function haFailure(err: unknown, options: { keepUnknown: boolean }): ToolOutcome<never> {
  if (err instanceof HaAdminOnlyError) return fail(err.code, err.message);
  if (options.keepUnknown && err instanceof HaAgentError && err.code.startsWith("unknown_")) return fail(err.code, err.message);
  if (err instanceof HaAgentError) return fail("ha_unavailable", `Home Assistant could not answer: ${err.message}`);
  throw err;
}
