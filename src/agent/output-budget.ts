/**
 * How a model's window is shared between the prompt and the answer, so that
 * prompt plus `max_tokens` never exceeds it: vLLM refuses such a request
 * outright, and Ollama and llama-server would cut the prompt.
 */

/** The answer's share when the window is small: a quarter, at least this much. */
const MIN_ANSWER_TOKENS = 1_024;
/** Prompt sizes are estimates (four characters a token); real tokenizers count JSON denser. */
const ESTIMATE_MARGIN = 1.25;
/** Chat templates add their own tokens around each message. */
const TEMPLATE_TOKENS = 64;
/** Below this, an answer cannot say anything useful. */
const MIN_USEFUL_ANSWER = 256;

export interface OutputBudget {
  /** The most the prompt may take, by our estimate, for the answer to keep its share. */
  promptLimit: number;
  /** `max_tokens` for a prompt of this estimated size, or undefined when no useful answer fits. */
  maxTokensFor(promptTokens: number): number | undefined;
}

export function outputBudget(args: { window: number; cap: number }): OutputBudget {
  const { window, cap } = args;
  const reserve = Math.min(cap, Math.max(MIN_ANSWER_TOKENS, Math.floor(window / 4)));
  return {
    promptLimit: Math.max(0, Math.floor((window - reserve - TEMPLATE_TOKENS) / ESTIMATE_MARGIN)),
    maxTokensFor(promptTokens) {
      const room = window - Math.ceil(promptTokens * ESTIMATE_MARGIN) - TEMPLATE_TOKENS;
      return room >= MIN_USEFUL_ANSWER ? Math.min(cap, room) : undefined;
    },
  };
}
