import { INVALID_TOOL_ARGS_KEY, type JsonValue, type ModelTurn } from "../schemas.js";
import type { GenerateRequest } from "../types.js";

type Json = { [key: string]: JsonValue };

export const PROVIDER_NAME = "ollama";

/**
 * The conversation as Ollama's `/api/chat` messages (api/types.go,
 * `Message`): the system instruction first, assistant turns with tool
 * calls whose `arguments` are objects, and one `tool` message per result,
 * naming the tool and the call it answers, as Home Assistant's own Ollama
 * integration sends them.
 */
export function renderMessages(request: GenerateRequest): Json[] {
  const messages: Json[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  for (const item of request.conversation) {
    if (item.type === "user") messages.push({ role: "user", content: item.text });
    else if (item.type === "model") messages.push(renderTurn(item.turn));
    else {
      for (const result of item.results) {
        messages.push({ role: "tool", content: JSON.stringify(result.output), tool_name: result.name, tool_call_id: result.callId });
      }
    }
  }
  return messages;
}

/** Our own turns go back as Ollama sent them; others are rendered from their text and calls. */
function renderTurn(turn: ModelTurn): Json {
  const raw = turn.raw;
  if (turn.provider === PROVIDER_NAME && raw !== null && typeof raw === "object" && !Array.isArray(raw) && raw.role === "assistant") return raw;
  const message: Json = { role: "assistant", content: turn.text };
  if (turn.toolCalls.length > 0) {
    // Arguments the model could not write as an object go back as {}; its error result says what it wrote.
    message.tool_calls = turn.toolCalls.map((call) => ({ id: call.id, function: { name: call.name, arguments: INVALID_TOOL_ARGS_KEY in call.args ? {} : call.args } }));
  }
  return message;
}

export function renderTools(request: GenerateRequest): Json[] | undefined {
  if (!request.tools?.length) return undefined;
  return request.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}
