import { randomUUID } from "node:crypto";
import { estimateRequestTokens, estimateTokens } from "../estimate.js";
import type { FinishReason, JsonValue, ModelUsage, ToolCall } from "../schemas.js";
import { parseArguments } from "../tool-args.js";
import type { GenerateRequest, GenerateResult, PartialOutput } from "../types.js";
import { PROVIDER_NAME } from "./messages.js";
import type { ChatPart } from "./wire.js";

type Json = { [key: string]: JsonValue };

/** An `/api/chat` answer being read, streamed or whole. */
export interface OllamaDraft {
  text: string;
  thinking: string;
  /** Each call as Ollama sent it: whole, with `arguments` as an object. */
  calls: { id: string; name: string; args: Json | string; index?: number }[];
  done: boolean;
  doneReason: string | undefined;
  promptTokens: number | undefined;
  outputTokens: number | undefined;
}

export const emptyOllamaDraft = (): OllamaDraft => ({ text: "", thinking: "", calls: [], done: false, doneReason: undefined, promptTokens: undefined, outputTokens: undefined });

/** Folds one NDJSON line (or the whole answer) into the draft; returns what it added, for `onPartial`. */
export function applyPart(draft: OllamaDraft, part: ChatPart): PartialOutput {
  const partial: PartialOutput = {};
  const message = part.message;
  if (message?.content) {
    draft.text += message.content;
    partial.text = message.content;
  }
  if (message?.thinking) {
    draft.thinking += message.thinking;
    partial.thinking = message.thinking;
  }
  for (const call of message?.tool_calls ?? []) {
    draft.calls.push({
      // Ollama 0.12+ names each call (server/routes.go, toolCallId); older versions do not.
      id: call.id || `call_${randomUUID().replace(/-/g, "").slice(0, 12)}`,
      name: call.function.name,
      args: call.function.arguments ?? {},
      ...(typeof call.function.index === "number" ? { index: call.function.index } : {}),
    });
  }
  if (part.done) {
    draft.done = true;
    draft.doneReason = part.done_reason ?? undefined;
    draft.promptTokens = part.prompt_eval_count ?? undefined;
    draft.outputTokens = part.eval_count ?? undefined;
  }
  return partial;
}

/**
 * The neutral result. The raw turn is the assistant message Ollama would
 * take back: `content`, `thinking` when there was some, and `tool_calls`
 * with their ids and object arguments.
 */
export function ollamaResult(draft: OllamaDraft, context: { request: GenerateRequest; model: string }): Omit<GenerateResult, "durationMs"> {
  const toolCalls: ToolCall[] = draft.calls.map((call) => ({ id: call.id, name: call.name, args: typeof call.args === "string" ? parseArguments(call.args) : call.args }));
  const raw: Json = { role: "assistant", content: draft.text };
  if (draft.thinking) raw.thinking = draft.thinking;
  if (draft.calls.length > 0) {
    raw.tool_calls = draft.calls.map((call) => ({
      id: call.id,
      function: { ...(call.index !== undefined ? { index: call.index } : {}), name: call.name, arguments: typeof call.args === "string" ? parseObject(call.args) : call.args },
    }));
  }
  const finishReason: FinishReason = toolCalls.length > 0 ? "tool_calls" : draft.doneReason === "length" ? "length" : draft.doneReason === "stop" || draft.doneReason === undefined ? "stop" : "other";
  return {
    turn: { provider: PROVIDER_NAME, model: context.model, raw, text: draft.text, toolCalls },
    text: draft.text,
    toolCalls,
    finishReason,
    ...(draft.doneReason ? { finishDetail: draft.doneReason } : {}),
    usage: usageOf(draft, context.request),
  };
}

/** Ollama refuses text arguments in the history; what is not an object goes back as {}. */
function parseObject(text: string): Json {
  const parsed = parseArguments(text);
  return Object.keys(parsed).some((k) => k.startsWith("_invalid")) ? {} : parsed;
}

/**
 * `prompt_eval_count` and `eval_count`; the latter includes the thinking,
 * which Ollama does not count apart, so that share is estimated from the
 * thinking text and the usage is marked estimated.
 */
function usageOf(draft: OllamaDraft, request: GenerateRequest): ModelUsage {
  if (draft.promptTokens === undefined || draft.outputTokens === undefined) {
    const written = draft.text + draft.calls.map((c) => c.name + JSON.stringify(c.args)).join("");
    return { inputTokens: estimateRequestTokens(request), outputTokens: estimateTokens(written), thinkingTokens: estimateTokens(draft.thinking), cachedTokens: 0, estimated: true };
  }
  const thinking = draft.thinking ? Math.min(estimateTokens(draft.thinking), draft.outputTokens) : 0;
  return { inputTokens: draft.promptTokens, outputTokens: draft.outputTokens - thinking, thinkingTokens: thinking, cachedTokens: 0, estimated: thinking > 0 };
}
