import type { JsonValue } from "../json.js";
import type { Flavour } from "./flavour.js";

/**
 * The servers the fake imitates besides OpenAI, Ollama's /v1 and
 * llama-server. Each difference follows the server's source or documents,
 * named next to it.
 */

function hex(n: number, random: () => number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(random() * 16).toString(16);
  return s;
}

/** vLLM's OpenAI-compatible server (`vllm serve MODEL`). */
export const vllm: Flavour = {
  name: "vllm",
  style: "openai",
  prefixes: ["/v1"],
  // FastAPI's own 404.
  notFound: () => ({ status: 404, body: { detail: "Not Found" } }),
  keyStatus: 401,
  streamsToolCallsAsText: false,
  templateErrorStatus: 400,
  defaultModels: ["Qwen/Qwen3-8B"],
  checksKey: true,
  publicModelList: false,
  anyModelName: false,
  wholeToolCalls: false,
  reasoningField: "reasoning_content",
  parallelNeedsFlag: false,
  parsesHistoryArguments: false,
  // vllm/entrypoints/openai/chat_completion/serving.py names calls chatcmpl-tool-<hex>.
  callId: (random) => `chatcmpl-tool-${hex(32, random)}`,
  // vllm/entrypoints/openai/engine/protocol.py, ErrorResponse: {"error": {message, type, param, code}}.
  error: (status, message, extra = {}) => ({
    error: { message, type: extra.type ?? (status === 400 ? "BadRequestError" : status === 404 ? "NotFoundError" : "InternalServerError"), param: extra.param ?? null, code: status },
  }),
  unknownModel: (model) => ({ status: 404, body: vllm.error(404, `The model \`${model}\` does not exist.`) }),
  // vllm/entrypoints/openai/api_server.py: the --api-key middleware answers {"error": "Unauthorized"}.
  missingKey: () => ({ error: "Unauthorized" }),
  wrongKey: () => ({ error: "Unauthorized" }),
  // vllm/entrypoints/openai/models/protocol.py, ModelCard: `max_model_len` is the window of prompt plus output.
  modelList: (models, created, contextSize) => ({
    object: "list",
    data: models.map((id) => ({ id, object: "model", created, owned_by: "vllm", root: id, parent: null, max_model_len: contextSize, permission: [] })),
  }),
  envelope: (id, model, created, object) => ({ id, object, created, model }),
};

/** LM Studio's OpenAI-compatible server (port 1234). */
export const lmstudio: Flavour = {
  name: "lmstudio",
  style: "openai",
  prefixes: ["/v1"],
  notFound: (method, path) => ({ status: 404, body: { error: `Unexpected endpoint or method. (${method} ${path})` } }),
  keyStatus: 401,
  // lmstudio-ai/lmstudio-bug-tracker issues 1071 and 723: with stream: true some versions send the model's
  // tool call as text in `content` (and finish with "stop"); without streaming the same call comes as tool_calls.
  streamsToolCallsAsText: true,
  templateErrorStatus: 400,
  defaultModels: ["qwen/qwen3-8b"],
  checksKey: false,
  publicModelList: true,
  anyModelName: false,
  wholeToolCalls: false,
  reasoningField: "reasoning_content",
  parallelNeedsFlag: false,
  parsesHistoryArguments: false,
  callId: (random) => String(Math.floor(random() * 1e9)),
  error: (status, message, extra = {}) => ({ error: { message, type: extra.type ?? "invalid_request_error", param: extra.param ?? null, code: extra.code ?? null } }),
  unknownModel: (model) => ({ status: 404, body: lmstudio.error(404, `Model "${model}" not found. Please load it in LM Studio first.`, { code: "model_not_found", param: "model" }) }),
  missingKey: () => ({ error: "Unauthorized" }),
  wrongKey: () => ({ error: "Unauthorized" }),
  modelList: (models) => ({ data: models.map((id) => ({ id, object: "model", owned_by: "organization_owner" })), object: "list" }),
  envelope: (id, model, created, object) => ({ id, object, created, model, system_fingerprint: model }),
};

/** Google's status names for HTTP codes, as its error bodies carry them. */
function googleStatus(status: number): string {
  return status === 400 ? "INVALID_ARGUMENT" : status === 401 ? "UNAUTHENTICATED" : status === 403 ? "PERMISSION_DENIED" : status === 404 ? "NOT_FOUND" : status === 429 ? "RESOURCE_EXHAUSTED" : status === 503 ? "UNAVAILABLE" : "INTERNAL";
}

/**
 * Gemini through Google's OpenAI-compatible endpoint
 * (`https://generativelanguage.googleapis.com/v1beta/openai`). Its error
 * bodies are JSON arrays (`[{"error": {code, message, status}}]`), as
 * clients have quoted them (github.com/SuzumiyaAkizuki/ComfyUI-NewBie-LLM-Formatter/issues/3,
 * github.com/jackmpcollins/magentic/pull/382).
 */
export const geminiOpenAi: Flavour = {
  name: "gemini-openai",
  style: "openai",
  prefixes: ["/v1beta/openai"],
  notFound: (method, path) => ({ status: 404, body: geminiOpenAi.error(404, `Method not found: ${method} ${path}`) }),
  // A refused key is a 400 INVALID_ARGUMENT at Google, not a 401.
  keyStatus: 400,
  streamsToolCallsAsText: false,
  templateErrorStatus: 400,
  defaultModels: ["gemini-3.8-flash", "gemini-3.5-flash"],
  checksKey: true,
  publicModelList: false,
  anyModelName: false,
  wholeToolCalls: true,
  reasoningField: undefined,
  parallelNeedsFlag: false,
  parsesHistoryArguments: false,
  callId: (random) => `function-call-${Math.floor(random() * 1e15)}`,
  error: (status, message): JsonValue => [{ error: { code: status, message, status: googleStatus(status) } }],
  unknownModel: (model) => ({
    status: 404,
    body: geminiOpenAi.error(404, `models/${model} is not found for API version v1main, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`),
  }),
  missingKey: () => geminiOpenAi.error(401, "Missing bearer or basic authentication in header."),
  wrongKey: () => geminiOpenAi.error(400, "API key not valid. Please pass a valid API key."),
  modelList: (models) => ({ object: "list", data: models.map((id) => ({ id: `models/${id}`, object: "model", owned_by: "google" })) }),
  envelope: (id, model, created, object) => ({ id, object, created, model }),
};
