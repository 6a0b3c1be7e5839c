import type { JsonValue, ModelTurn } from "../schemas.js";
import type { GenerateRequest } from "../types.js";
import { PROVIDER_NAME } from "./result.js";

type WireMessage = { [key: string]: JsonValue };

/**
 * The body of `POST /chat/completions`. Usage is asked for in streams
 * (`stream_options.include_usage`), without which no server sends it.
 * `parallel_tool_calls: true` goes with tools, because llama-server makes
 * only one call per turn without it, unless the server refused it once.
 * A temperature goes only when the request or the user sets one, so the
 * model's own settings apply otherwise.
 */
export function chatBody(
  request: GenerateRequest,
  settings: {
    model: string;
    stream: boolean;
    maxTokensField: "max_tokens" | "max_completion_tokens";
    parallelToolCalls: boolean;
    temperature?: number | undefined;
    /** Overrides the request's output budget (after a refusal that stated what is left). */
    maxTokens?: number | undefined;
  },
): { [key: string]: JsonValue } {
  const body: { [key: string]: JsonValue } = { model: settings.model, messages: renderMessages(request), stream: settings.stream };
  if (settings.stream) body.stream_options = { include_usage: true };
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    if (settings.parallelToolCalls) body.parallel_tool_calls = true;
  }
  const maxTokens = settings.maxTokens ?? request.maxOutputTokens;
  if (maxTokens !== undefined) body[settings.maxTokensField] = maxTokens;
  const temperature = request.temperature ?? settings.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  return body;
}

/** The conversation as chat messages, oldest first, after the system message. */
export function renderMessages(request: GenerateRequest): WireMessage[] {
  const messages: WireMessage[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  for (const item of request.conversation) {
    if (item.type === "user") messages.push({ role: "user", content: item.text });
    else if (item.type === "model") messages.push(renderTurn(item.turn));
    else {
      for (const result of item.results) {
        messages.push({ role: "tool", tool_call_id: result.callId, content: JSON.stringify(result.output) });
      }
    }
  }
  return messages;
}

/**
 * Our own turns go back as the server sent them (`raw`). Turns of another
 * provider are rendered from their neutral text and tool calls.
 */
function renderTurn(turn: ModelTurn): WireMessage {
  if (turn.provider === PROVIDER_NAME && isAssistantMessage(turn.raw)) return sendable(turn.raw);
  const message: WireMessage = { role: "assistant", content: turn.text === "" && turn.toolCalls.length > 0 ? null : turn.text };
  if (turn.toolCalls.length > 0) {
    message.tool_calls = turn.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
  }
  return message;
}

function isAssistantMessage(raw: JsonValue): raw is { [key: string]: JsonValue } {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) && raw.role === "assistant";
}

/**
 * The raw turn, with one change: argument text that is not a JSON object
 * (the model wrote broken JSON, or `""`) goes back as `{}`, because Ollama
 * rejects the whole request ("invalid tool call arguments") otherwise. The
 * model still learns what it wrote from the error result of that call.
 */
function sendable(raw: { [key: string]: JsonValue }): WireMessage {
  const calls = raw.tool_calls;
  if (!Array.isArray(calls) || calls.every((call) => isObjectText(argumentsOf(call)))) return raw;
  return {
    ...raw,
    tool_calls: calls.map((call) => {
      const text = argumentsOf(call);
      if (text === undefined || isObjectText(text) || typeof call !== "object" || call === null || Array.isArray(call)) return call;
      return { ...call, function: { ...(call.function as { [key: string]: JsonValue }), arguments: "{}" } };
    }),
  };
}

function argumentsOf(call: JsonValue): string | undefined {
  if (typeof call !== "object" || call === null || Array.isArray(call)) return undefined;
  const fn = call.function;
  if (typeof fn !== "object" || fn === null || Array.isArray(fn)) return undefined;
  return typeof fn.arguments === "string" ? fn.arguments : undefined;
}

function isObjectText(text: string | undefined): boolean {
  if (text === undefined) return true;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}
