import { HaAgentError } from "../shared/index.js";
import { fail, type ToolCallContext, type ToolOutcome } from "./tool.js";

/**
 * The one mapping from a refusal thrown by the store or the agent to the
 * failure value a caller reads. Each condition has one code (docs/errors.md,
 * "Tool calls"); an id that is not a ULID is simply not found. Anything that
 * is not one of our errors is a bug and is rethrown, for the registry to
 * report as `internal`.
 */
export function toolFailure(err: unknown): ToolOutcome<never> {
  if (!(err instanceof HaAgentError)) throw err;
  return fail(err.code === "invalid_id" ? "not_found" : err.code, err.message);
}

/** Wraps a tool's invoke so that refusals thrown inside it come back as failure values. */
export function refusalsAsFailures<A, O>(invoke: (args: A, ctx: ToolCallContext) => Promise<ToolOutcome<O>>): (args: A, ctx: ToolCallContext) => Promise<ToolOutcome<O>> {
  return async (args, ctx) => {
    try {
      return await invoke(args, ctx);
    } catch (err) {
      return toolFailure(err);
    }
  };
}
