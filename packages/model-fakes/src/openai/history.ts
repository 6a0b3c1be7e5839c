import type { JsonValue } from "../json.js";
import type { Flavour } from "./flavours.js";

type Json = { [key: string]: JsonValue };
const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/**
 * Checks a conversation the way the servers do and returns the 400 body of
 * the first problem, in the server's words, or undefined when it is fine:
 * - every assistant message with `tool_calls` is followed by `tool`
 *   messages answering each of its `tool_call_id`s (OpenAI's rule; the
 *   fake holds every flavour to it, because an agent that breaks it against
 *   a lenient local server breaks on OpenAI);
 * - a `tool` message answers a call of the assistant message before it;
 * - Ollama parses the argument text of calls in the history and refuses
 *   text that is not JSON ("invalid tool call arguments"), and refuses a
 *   `null` content without tool calls.
 */
export function checkHistory(messages: JsonValue[], flavour: Flavour): JsonValue | undefined {
  let open: { at: number; ids: string[] } | undefined;
  let answerable: Set<string> = new Set();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isObject(message) || typeof message.role !== "string" || !ROLES.has(message.role)) {
      return flavour.error(400, `Invalid value for 'messages[${i}].role': expected one of system, developer, user, assistant or tool.`, { param: `messages.[${i}].role` });
    }
    if (message.role === "tool") {
      const id = message.tool_call_id;
      if (answerable.size === 0) {
        return flavour.error(400, "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", {
          param: `messages.[${i}].role`,
        });
      }
      if (typeof id !== "string" || !answerable.has(id)) {
        return flavour.error(400, `Invalid parameter: 'tool_call_id' of '${String(id)}' not found in 'tool_calls' of previous message.`, {
          param: `messages.[${i}].tool_call_id`,
        });
      }
      if (open) open.ids = open.ids.filter((x) => x !== id);
      continue;
    }
    const unanswered = open?.ids ?? [];
    if (open && unanswered.length > 0) return missingAnswers(flavour, open.at, unanswered);
    open = undefined;
    answerable = new Set();
    if (message.role !== "assistant") {
      if (flavour.parsesHistoryArguments && message.content === null) return flavour.error(400, "invalid message content type: <nil>");
      continue;
    }
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    if (calls.length === 0) {
      if (flavour.parsesHistoryArguments && message.content === null) return flavour.error(400, "invalid message content type: <nil>");
      continue;
    }
    const ids: string[] = [];
    for (const call of calls) {
      const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
      if (!isObject(call) || typeof call.id !== "string" || !fn || typeof fn.name !== "string") {
        return flavour.error(400, `Missing required parameter: 'messages[${i}].tool_calls[].id', '.function.name' or '.function.arguments'.`, {
          param: `messages.[${i}].tool_calls`,
        });
      }
      if (flavour.parsesHistoryArguments && !parsesAsObject(fn.arguments)) return flavour.error(400, "invalid tool call arguments");
      ids.push(call.id);
    }
    open = { at: i, ids };
    answerable = new Set(ids);
  }
  if (open && open.ids.length > 0) return missingAnswers(flavour, open.at, open.ids);
  return undefined;
}

function missingAnswers(flavour: Flavour, at: number, ids: string[]): JsonValue {
  return flavour.error(
    400,
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids.join(", ")}`,
    { param: `messages.[${at + 1}].role` },
  );
}

function parsesAsObject(text: JsonValue | undefined): boolean {
  if (typeof text !== "string") return false;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

function isObject(value: JsonValue | undefined): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
