import type { Usage } from "./continuation-schema.js";
import type { ModelStats, SessionStats } from "./session-schema.js";

const MAX_MODELS = 20;

/** A session's totals after one more finished turn, overall and for the model that answered it. */
export function addUsage(stats: SessionStats, usage: Usage): SessionStats {
  const byModel = { ...stats.byModel };
  // Models a session may name per turn are the caller's choice: past 20, the rest count as "other".
  const key = usage.model && (Object.hasOwn(byModel, usage.model) || Object.keys(byModel).length < MAX_MODELS) ? usage.model : usage.model ? "other" : undefined;
  if (key) {
    const m: ModelStats = byModel[key] ?? { turns: 0, modelCalls: 0, steps: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, tokensThinking: 0 };
    byModel[key] = {
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
