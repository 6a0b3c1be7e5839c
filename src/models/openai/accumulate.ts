import type { JsonValue } from "../schemas.js";
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
  const extra = extraFields(delta);
  if (startsNew) {
    calls.push({ index, id, name: delta.function?.name ?? "", arguments: argumentText(delta.function?.arguments), extra });
    return;
  }
  current.id ??= id;
  if (!current.name && delta.function?.name) current.name = delta.function.name;
  current.arguments += argumentText(delta.function?.arguments);
  Object.assign(current.extra, extra);
}

/** A call as a whole message lists it (no merging by index). */
export function wholeCall(call: WireToolCallDelta): DraftCall {
  return { index: call.index ?? undefined, id: call.id || undefined, name: call.function?.name ?? "", arguments: argumentText(call.function?.arguments), extra: extraFields(call) };
}

/** Argument text as written; an object (some servers send one) as its JSON. */
function argumentText(args: string | { [key: string]: JsonValue } | null | undefined): string {
  if (args === null || args === undefined) return "";
  return typeof args === "string" ? args : JSON.stringify(args);
}

const KNOWN_CALL_FIELDS = new Set(["index", "id", "type", "function"]);

/** The fields of a call we do not read, such as Gemini's `extra_content`, kept as received. */
function extraFields(delta: WireToolCallDelta): { [key: string]: JsonValue } {
  const extra: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(delta)) {
    if (!KNOWN_CALL_FIELDS.has(key) && value !== undefined) extra[key] = value as JsonValue;
  }
  return extra;
}

function findLast<T>(items: T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return items[i];
  return undefined;
}
