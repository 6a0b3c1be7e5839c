import type { Usage } from "./continuation-schema.js";
import type { SessionStats } from "./session-schema.js";

/** A session's totals after one more finished turn. */
export function addUsage(stats: SessionStats, usage: Usage): SessionStats {
  return {
    turns: stats.turns + 1,
    steps: stats.steps + usage.steps,
    toolCalls: stats.toolCalls + usage.toolCalls,
    tokensIn: stats.tokensIn + usage.tokensIn,
    tokensOut: stats.tokensOut + usage.tokensOut,
    tokensThinking: stats.tokensThinking + usage.tokensThinking,
  };
}
