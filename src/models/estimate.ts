import type { GenerateRequest } from "./types.js";

/**
 * A provider-neutral token estimate: about four characters of English or
 * JSON per token, which is what both Gemini's and OpenAI's tokenizers come
 * to on average. Used where a provider reports no count.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimates a whole request: system, conversation and tool declarations. */
export function estimateRequestTokens(request: GenerateRequest): number {
  let chars = request.system.length;
  for (const item of request.conversation) {
    if (item.type === "user") chars += item.text.length;
    else if (item.type === "model") chars += item.turn.text.length + JSON.stringify(item.turn.toolCalls).length;
    else chars += JSON.stringify(item.results).length;
  }
  if (request.tools?.length) chars += JSON.stringify(request.tools).length;
  return Math.ceil(chars / 4);
}
