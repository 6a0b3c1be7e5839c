import type { PartialOutput } from "../types.js";
import type { AssistantDraft, DraftCall } from "./draft.js";
import type { WireChunk, WireDelta, WireToolCallDelta } from "./wire.js";

/**
 * Folds one streamed chunk into the draft and returns what it added, for
 * `onPartial`. Only the first choice counts: we never ask for more.
 */
export function applyChunk(draft: AssistantDraft, chunk: WireChunk): PartialOutput {
  if (chunk.usage) draft.usage = chunk.usage;
  const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
  if (!choice) return {};
  if (choice.finish_reason) draft.finishReason = choice.finish_reason;
  return choice.delta ? applyDelta(draft, choice.delta) : {};
}

/** Folds a delta, or a whole non-streamed message, into the draft. */
export function applyDelta(draft: AssistantDraft, delta: WireDelta): PartialOutput {
  const partial: PartialOutput = {};
  if (delta.content) {
    draft.text += delta.content;
    partial.text = delta.content;
  }
  for (const field of ["reasoning", "reasoning_content"] as const) {
    const thinking = delta[field];
    if (!thinking) continue;
    draft.thinking += thinking;
    draft.reasoningField ??= field;
    partial.thinking = (partial.thinking ?? "") + thinking;
  }
  if (delta.refusal) draft.refusal += delta.refusal;
  for (const call of delta.tool_calls ?? []) applyToolCallDelta(draft.calls, call);
  if (delta.function_call) applyToolCallDelta(draft.calls, { index: 0, function: delta.function_call });
  return partial;
}

/**
 * Tool calls are keyed by `index`. OpenAI and llama-server send the id and
 * name first, then the arguments in fragments; Ollama sends each call whole.
 * Some Ollama versions gave every call index 0, so a delta that brings a
 * new id for an index whose call already has another id starts a new call.
 */
function applyToolCallDelta(calls: DraftCall[], delta: WireToolCallDelta): void {
  const index = delta.index ?? undefined;
  const current = findLast(calls, (c) => c.index === index);
  const id = delta.id || undefined;
  const startsNew = !current || (id !== undefined && current.id !== undefined && current.id !== id);
  if (startsNew) {
    calls.push({ index, id, name: delta.function?.name ?? "", arguments: delta.function?.arguments ?? "" });
    return;
  }
  current.id ??= id;
  if (!current.name && delta.function?.name) current.name = delta.function.name;
  if (delta.function?.arguments) current.arguments += delta.function.arguments;
}

function findLast<T>(items: T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return items[i];
  return undefined;
}
