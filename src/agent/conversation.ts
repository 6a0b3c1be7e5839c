import type { ConversationItem, ModelTurn } from "../models/index.js";

/**
 * Moves the turn's priming (the retrieval snippets, or a persona's primed
 * facts), when fitting kept it, out of the conversation and to the end of
 * the system text: as a message of its own it would stand as a second user
 * message before the user's, which strict chat templates refuse. It is found
 * by identity, so a remembered message is never taken for it.
 */
export function primingIntoSystem(args: { system: string; conversation: ConversationItem[]; priming: ConversationItem | undefined }): { system: string; conversation: ConversationItem[] } {
  const at = args.priming ? args.conversation.indexOf(args.priming) : -1;
  const item = args.conversation[at];
  if (item?.type !== "user") return { system: args.system, conversation: args.conversation };
  return {
    system: `${args.system}\n\n## For the user's next message\n${item.text}`,
    conversation: [...args.conversation.slice(0, at), ...args.conversation.slice(at + 1)],
  };
}

/**
 * The conversation in the shape every chat template accepts: after the
 * system instruction, user and assistant turns alternate, starting with the
 * user, and tool results follow the assistant turn that asked for them.
 * Mistral-family templates raise "Conversation roles must alternate" on two
 * user messages in a row, and Gemini refuses empty text parts, so:
 * - user texts in a row are joined into one message (memory that lost an
 *   answer);
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
