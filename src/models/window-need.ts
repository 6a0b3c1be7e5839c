import type { ModelFacts } from "./types.js";

/**
 * The smallest context window HA Agent's tools work in. Its instructions
 * and tool declarations take about 3,600 tokens, an answer takes a quarter
 * of the window, and tool results need the rest: below this, a turn with
 * two tool calls no longer fits.
 */
export const MIN_TOOL_WINDOW = 8_192;

/** One sentence when the model's window is too small for the tools, naming where the figure came from and what to set. */
export function windowProblem(facts: ModelFacts): string | undefined {
  if (facts.contextWindow >= MIN_TOOL_WINDOW) return undefined;
  const fmt = (n: number) => n.toLocaleString("en-US");
  const source = facts.windowSource ? ` It comes from: ${facts.windowSource}.` : "";
  return `The model's context window, ${fmt(facts.contextWindow)} tokens, is too small for HA Agent's tools: their declarations and the instructions take about 3,600 tokens, and tool results and answers need room beside them. Give it at least ${fmt(MIN_TOOL_WINDOW)}: set model_context_tokens (Ollama's num_ctx follows it), or start the server with a larger context (llama-server -c, vLLM --max-model-len).${source}`;
}
