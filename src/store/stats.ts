import type { Usage } from "./continuation-schema.js";
import type { ModelStats, SessionStats } from "./session-schema.js";

/** A session's totals after one more finished turn, overall and for the model that answered it. */
export function addUsage(stats: SessionStats, usage: Usage): SessionStats {
  const byModel = { ...stats.byModel };
  if (usage.model) {
    const m: ModelStats = byModel[usage.model] ?? { turns: 0, modelCalls: 0, steps: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, tokensThinking: 0 };
    byModel[usage.model] = {
      turns: m.turns + 1,
      modelCalls: m.modelCalls + usage.modelCalls,
      steps: m.steps + usage.steps,
      toolCalls: m.toolCalls + usage.toolCalls,
      tokensIn: m.tokensIn + usage.tokensIn,
      tokensOut: m.tokensOut + usage.tokensOut,
      tokensThinking: m.tokensThinking + usage.tokensThinking,
    };
  }
  return {
    turns: stats.turns + 1,
    steps: stats.steps + usage.steps,
    toolCalls: stats.toolCalls + usage.toolCalls,
    tokensIn: stats.tokensIn + usage.tokensIn,
    tokensOut: stats.tokensOut + usage.tokensOut,
    tokensThinking: stats.tokensThinking + usage.tokensThinking,
    byModel,
  };
}
