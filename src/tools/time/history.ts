import { defineTool, type ToolSpec } from "../tool.js";
import type { TimeToolDeps } from "./common.js";
import { HistoryInput, HistoryOutput } from "./history-schema.js";

/**
 * `history`: what entities did over a period, as a story and then the
 * facts: time in each state, the changes in order, and for numbers the
 * range, the time-weighted mean and buckets; within a token budget.
 */
export function createHistoryTool(deps: TimeToolDeps): ToolSpec {
  return defineTool({
    name: "history",
    title: "History of entities",
    description:
      "What entities did over a period: time in each state, changes, and for numbers min/mean/max with buckets; old periods from long-term statistics.",
    input: HistoryInput,
    output: HistoryOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // Loaded at the first call: a program that never reads history does not hold its code.
    invoke: async (args, ctx) => (await import("./history-run.js")).runHistory({ deps, args, ctx }),
  });
}
