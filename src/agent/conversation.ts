import type { ConversationItem, ModelTurn } from "../models/index.js";

/**
 * The conversation in the shape every chat template accepts: after the
 * system instruction, user and assistant turns alternate, starting with the
 * user, and tool results follow the assistant turn that asked for them.
 * Mistral-family templates raise "Conversation roles must alternate" on two
 * user messages in a row, and Gemini refuses empty text parts, so:
 * - user texts in a row are joined into one message (the retrieval
 *   snippets join the user's message this way);
 * - empty user texts and model turns with neither text nor tool calls are
 *   left out: there is nothing in them to send;
 * - a text-only model turn that another model turn follows, or that opens
 *   the conversation, is left out (only damaged memory makes either).
 */
export function alternating(items: readonly ConversationItem[]): ConversationItem[] {
  const out: ConversationItem[] = [];
  for (const item of items) {
    if (item.type === "user") {
      if (item.text.trim() === "") continue;
      const last = out.at(-1);
      if (last?.type === "user") out[out.length - 1] = { type: "user", text: `${last.text}\n\n${item.text}` };
      else out.push(item);
      continue;
    }
    if (item.type === "model") {
      if (isEmptyTurn(item.turn)) continue;
      const last = out.at(-1);
      if (last?.type === "model" && last.turn.toolCalls.length === 0) out.pop();
      if (out.length === 0 && item.turn.toolCalls.length === 0) continue;
    }
    out.push(item);
  }
  return out;
}

/** A model turn that carries nothing: no text, no tool call. */
export function isEmptyTurn(turn: ModelTurn): boolean {
  return turn.text.trim() === "" && turn.toolCalls.length === 0;
}
