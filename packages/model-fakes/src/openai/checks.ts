import type { JsonValue } from "../json.js";
import type { SignatureBook } from "../gemini/index.js";
import { fullView } from "../prompt-view.js";
import type { Flavour } from "./flavours.js";
import { mistralTemplateProblem } from "./template.js";

type Json = { [key: string]: JsonValue };

/** How the fake server was started: the flags and settings real servers are started with. */
export interface ServerSetup {
  /** llama-server: started with --jinja (default true); without it, tools are refused. */
  jinja?: boolean;
  /** vLLM: started with --enable-auto-tool-choice and --tool-call-parser (default false, as vLLM). */
  autoToolChoice?: boolean;
  /** The model's chat template: `mistral` raises on roles that do not alternate. */
  chatTemplate?: "mistral";
  /** The window: llama-server's n_ctx, vLLM's max_model_len, LM Studio's loaded context (default 16384). */
  contextSize?: number;
}

export type Refusal = { status: number; body: JsonValue; outcome: string };

/** OpenAI's reasoning models (platform.openai.com/docs/guides/reasoning): o1, o3, o3-mini, o4-mini. */
const O_SERIES = /^o\d/;

/**
 * What the real server refuses before it runs the model, in its words, or
 * undefined. The body has passed the generic checks (JSON, model, history).
 */
export function refusal(args: { flavour: Flavour; body: Json; setup: ServerSetup; signatures: SignatureBook }): Refusal | undefined {
  const { flavour, body, setup } = args;
  const messages = body.messages as Json[];
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const refuse = (status: number, message: string, outcome: string, extra?: Parameters<Flavour["error"]>[2]): Refusal => ({ status, body: flavour.error(status, message, extra), outcome });

  if (flavour.name === "openai" && typeof body.model === "string" && O_SERIES.test(body.model)) {
    if ("parallel_tool_calls" in body) return refuse(400, "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", "unsupported_parameter", { param: "parallel_tool_calls", code: "unsupported_parameter" });
    if ("max_tokens" in body) return refuse(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "unsupported_parameter", { param: "max_tokens", code: "unsupported_parameter" });
    if (typeof body.temperature === "number" && body.temperature !== 1) {
      return refuse(400, `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, "unsupported_value", { param: "temperature", code: "unsupported_value" });
    }
  }
  // llama.cpp tools/server (oaicompat chat params): tools without --jinja throw, and the server answers 500.
  if (flavour.name === "llama-server" && hasTools && setup.jinja === false) return refuse(500, "tools param requires --jinja flag", "no_jinja", { type: "server_error" });
  if (flavour.name === "vllm") {
    // vllm/entrypoints/openai/chat_completion/protocol.py: tools without tool_choice mean "auto";
    // serving.py refuses "auto" unless the server runs with both flags.
    const choice = body.tool_choice ?? (hasTools ? "auto" : "none");
    if (choice === "auto" && !setup.autoToolChoice) return refuse(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', "no_auto_tool_choice");
    const window = setup.contextSize ?? 16_384;
    const prompt = fullView(messages, body.tools).tokens;
    const asked = typeof body.max_tokens === "number" ? body.max_tokens : typeof body.max_completion_tokens === "number" ? body.max_completion_tokens : undefined;
    // vllm/entrypoints/openai/engine/serving.py: the prompt plus max_tokens must fit max_model_len.
    if (prompt >= window) return refuse(400, `This model's maximum context length is ${window} tokens. However, your request has ${prompt} input tokens. Please reduce the length of the input messages.`, "context_length");
    if (asked !== undefined && prompt + asked > window) {
      return refuse(400, `'max_tokens' or 'max_completion_tokens' is too large: ${asked}. This model's maximum context length is ${window} tokens and your request has ${prompt} input tokens (${asked} > ${window} - ${prompt}).`, "context_length");
    }
  }
  if (flavour.name === "gemini-openai") {
    const unknown = unknownField(body);
    if (unknown) return refuse(400, `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`, "unknown_field");
    // Reported by clients of the endpoint (github.com/TheAgenticAI/TheAgenticBrowser/issues/4).
    if (body.parallel_tool_calls === true) return refuse(400, "Parallel tool calls are not supported.", "unsupported_parameter");
    const unsigned = unsignedCall(messages, args.signatures);
    if (unsigned) return refuse(400, unsigned, "signature");
  }
  if (setup.chatTemplate === "mistral") {
    const problem = mistralTemplateProblem(messages);
    if (problem) return refuse(flavour.templateErrorStatus, problem, "template", { type: flavour.templateErrorStatus >= 500 ? "server_error" : "invalid_request_error" });
  }
  return undefined;
}

/** The fields Google's endpoint knows; any other is refused, as protobuf JSON parsing does. */
const GOOGLE_FIELDS = new Set([
  "model", "messages", "stream", "stream_options", "tools", "tool_choice", "parallel_tool_calls", "max_tokens", "max_completion_tokens",
  "temperature", "top_p", "n", "stop", "response_format", "reasoning_effort", "seed", "presence_penalty", "frequency_penalty", "extra_body",
]);
const GOOGLE_MESSAGE_FIELDS = new Set(["role", "content", "name", "tool_calls", "tool_call_id", "extra_content"]);
const GOOGLE_CALL_FIELDS = new Set(["id", "type", "function", "extra_content", "index"]);

function unknownField(body: Json): string | undefined {
  for (const key of Object.keys(body)) if (!GOOGLE_FIELDS.has(key)) return key;
  for (const message of body.messages as Json[]) {
    for (const key of Object.keys(message)) if (!GOOGLE_MESSAGE_FIELDS.has(key)) return key;
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (call && typeof call === "object" && !Array.isArray(call)) for (const key of Object.keys(call)) if (!GOOGLE_CALL_FIELDS.has(key)) return key;
    }
  }
  return undefined;
}

/**
 * Gemini 3 through the OpenAI endpoint (ai.google.dev/gemini-api/docs/thought-signatures):
 * each tool call of the current turn must come back with the
 * `extra_content.google.thought_signature` it was sent with.
 */
function unsignedCall(messages: Json[], signatures: SignatureBook): string | undefined {
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  for (const [i, message] of messages.entries()) {
    if (i < lastUser || message.role !== "assistant" || !Array.isArray(message.tool_calls)) continue;
    for (const [position, call] of message.tool_calls.entries()) {
      if (!call || typeof call !== "object" || Array.isArray(call)) continue;
      const fn = call.function as Json | undefined;
      const google = (call.extra_content as Json | undefined)?.google as Json | undefined;
      const signature = google?.thought_signature;
      if (signature === undefined) {
        return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(fn?.name)}\` , position ${position + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
      }
      if (!signatures.valid({ name: fn?.name, arguments: fn?.arguments }, signature)) return "Corrupted thought signature.";
    }
  }
  return undefined;
}
