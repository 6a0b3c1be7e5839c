import { defineTool, type ToolSpec } from "../tool.js";
import type { TimeToolDeps } from "./common.js";
import { StatisticsInput, StatisticsOutput } from "./statistics-schema.js";

/** `statistics`: Home Assistant's long-term statistics of sensors, by hour, day, week or month, with a story first. */
export function createStatisticsTool(deps: TimeToolDeps): ToolSpec {
  return defineTool({
    name: "statistics",
    title: "Long-term statistics",
    description: "Long-term statistics of sensors with a state class, per period: change/sum/state of totals, mean/min/max of measurements.",
    input: StatisticsInput,
    output: StatisticsOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // Loaded at the first call: a program that never reads statistics does not hold its code.
    invoke: async (args, ctx) => (await import("./statistics-run.js")).runStatistics({ deps, args, ctx }),
  });
}
