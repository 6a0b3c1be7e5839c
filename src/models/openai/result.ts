import { randomUUID } from "node:crypto";
import { estimateRequestTokens, estimateTokens } from "../estimate.js";
import { ModelError } from "../errors.js";
import type { FinishReason, JsonValue, ModelUsage, ToolCall } from "../schemas.js";
import { parseArguments } from "../tool-args.js";
import type { GenerateRequest, GenerateResult } from "../types.js";
import type { AssistantDraft } from "./draft.js";

export const PROVIDER_NAME = "openai";

/** What a content filter stop says when the server gave no words of its own. */
const FILTERED = "The server's content filter stopped the answer.";

/**
 * Turns a finished draft into the neutral result. The raw turn is the
 * assistant message the server would accept back: `content`, `tool_calls`
 * with the argument text exactly as the model wrote it, the thinking under
 * the field name the server used, and `refusal` when there was one.
 */
export function toResult(draft: AssistantDraft, context: { request: GenerateRequest; model: string }): Omit<GenerateResult, "durationMs"> {
  const calls = draft.calls.map((call) => {
    if (!call.name) throw new ModelError("invalid_response", "The model server sent a tool call without a function name; try again, or pick a model with better tool support.");
    return { ...call, id: call.id || `call_${randomUUID().replace(/-/g, "").slice(0, 24)}` };
  });
  const toolCalls: ToolCall[] = calls.map((call) => ({ id: call.id, name: call.name, args: parseArguments(call.arguments) }));

  const raw: { [key: string]: JsonValue } = { role: "assistant", content: draft.text === "" && calls.length > 0 ? null : draft.text };
  if (draft.reasoningField && draft.thinking) raw[draft.reasoningField] = draft.thinking;
  if (calls.length > 0) {
    // Unknown fields of a call (Gemini's extra_content with its thought signature) go back exactly as received.
    raw.tool_calls = calls.map((call) => ({ ...call.extra, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
  }
  if (draft.refusal) raw.refusal = draft.refusal;

  const finishReason = mapFinishReason(draft, toolCalls.length > 0);
  const result: Omit<GenerateResult, "durationMs"> = {
    turn: { provider: PROVIDER_NAME, model: context.model, raw, text: draft.text, toolCalls },
    text: draft.text,
    toolCalls,
    finishReason,
    usage: toUsage(draft, context.request),
  };
  if (finishReason === "safety") result.refusal = draft.refusal || FILTERED;
  return result;
}

function mapFinishReason(draft: AssistantDraft, hasCalls: boolean): FinishReason {
  if (draft.refusal) return "safety";
  switch (draft.finishReason) {
    case "length":
      return "length";
    case "content_filter":
      return "safety";
    case "tool_calls":
    case "function_call":
      return hasCalls ? "tool_calls" : "other";
    // Some servers say `stop` even after tool calls; the calls are what the agent must act on.
    case "stop":
    case undefined:
      return hasCalls ? "tool_calls" : "stop";
    default:
      return hasCalls ? "tool_calls" : "other";
  }
}

/**
 * Usage as reported, or estimated when the server reported none (a stream
 * without `stream_options.include_usage` support). `outputTokens` excludes
 * thinking, as Gemini's count does: OpenAI's `completion_tokens` includes
 * reasoning, so its `reasoning_tokens` are moved over. A server that shows
 * thinking text but no thinking count (Ollama, llama-server) gets an
 * estimate for that split, marked as such. An absent cached count means
 * the server has no prompt cache to report, not an unknown: it counts as 0.
 */
function toUsage(draft: AssistantDraft, request: GenerateRequest): ModelUsage {
  const u = draft.usage;
  if (!u || u.prompt_tokens == null || u.completion_tokens == null) {
    const written = draft.text + draft.refusal + draft.calls.map((c) => c.name + c.arguments).join("");
    return {
      inputTokens: estimateRequestTokens(request),
      outputTokens: estimateTokens(written),
      thinkingTokens: estimateTokens(draft.thinking),
      cachedTokens: 0,
      estimated: true,
    };
  }
  const completion = Math.round(u.completion_tokens);
  const reported = u.completion_tokens_details?.reasoning_tokens;
  let thinking = 0;
  let estimated = false;
  if (reported != null) thinking = Math.min(Math.round(reported), completion);
  else if (draft.thinking) {
    thinking = Math.min(estimateTokens(draft.thinking), completion);
    estimated = true;
  }
  return {
    inputTokens: Math.round(u.prompt_tokens),
    outputTokens: completion - thinking,
    thinkingTokens: thinking,
    cachedTokens: Math.round(u.prompt_tokens_details?.cached_tokens ?? 0),
    estimated,
  };
}
