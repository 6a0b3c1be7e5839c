import type { Flavour } from "./flavour.js";
import { geminiOpenAi, lmstudio, vllm } from "./more-flavours.js";
import type { FakeFlavour } from "./types.js";

export type { Flavour } from "./flavour.js";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export function randomString(n: number, random: () => number, alphabet = ALNUM): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}

/** OpenAI's own API. */
const openai: Flavour = {
  name: "openai",
  style: "openai",
  prefixes: ["/v1"],
  notFound: (method, path) => ({ status: 404, body: openai.error(404, `Invalid URL (${method} ${path})`) }),
  keyStatus: 401,
  streamsToolCallsAsText: false,
  templateErrorStatus: 400,
  defaultModels: ["gpt-4.1-mini", "gpt-4o-mini", "gpt-5-mini", "o4-mini"],
  checksKey: true,
  publicModelList: false,
  anyModelName: false,
  wholeToolCalls: false,
  reasoningField: undefined,
  parallelNeedsFlag: false,
  parsesHistoryArguments: false,
  callId: (random) => `call_${randomString(24, random)}`,
  error: (status, message, extra = {}) => ({
    error: {
      message,
      type: extra.type ?? (status === 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error"),
      param: extra.param ?? null,
      code: extra.code ?? null,
    },
  }),
  unknownModel: (model) => ({
    status: 404,
    body: openai.error(404, `The model \`${model}\` does not exist or you do not have access to it.`, { code: "model_not_found" }),
  }),
  missingKey: () =>
    openai.error(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). You can obtain an API key from https://platform.openai.com/account/api-keys.",
    ),
  // OpenAI echoes a masked form of the key it got.
  wrongKey: (sent) =>
    openai.error(
      401,
      `Incorrect API key provided: ${sent.slice(0, 6)}${"*".repeat(Math.max(4, sent.length - 10))}${sent.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      { code: "invalid_api_key" },
    ),
  modelList: (models, created) => ({ object: "list", data: models.map((id) => ({ id, object: "model", created, owned_by: "system" })) }),
  envelope: (id, model, created, object) => ({ id, object, created, model, service_tier: "default", system_fingerprint: "fp_fake0openai" }),
};

/** Ollama's OpenAI-compatible endpoints (`/v1`). */
const ollama: Flavour = {
  name: "ollama",
  style: "ollama",
  prefixes: ["/v1"],
  // Go's router: a plain-text 404.
  notFound: () => ({ status: 404, body: "404 page not found" }),
  keyStatus: 401,
  streamsToolCallsAsText: false,
  templateErrorStatus: 400,
  defaultModels: ["qwen3:8b", "llama3.1:8b", "gpt-oss:20b"],
  checksKey: false,
  publicModelList: true,
  anyModelName: false,
  wholeToolCalls: true,
  reasoningField: "reasoning",
  parallelNeedsFlag: false,
  parsesHistoryArguments: true,
  callId: (random) => `call_${randomString(8, random, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
  error: (status, message) => ({
    error: { message, type: status === 400 ? "invalid_request_error" : status === 404 ? "not_found_error" : "api_error", param: null, code: null },
  }),
  unknownModel: (model) => ({ status: 404, body: ollama.error(404, `model "${model}" not found, try pulling it first`) }),
  missingKey: () => ollama.error(401, "unauthorized"),
  wrongKey: () => ollama.error(401, "unauthorized"),
  // openai/openai.go, ToListCompletion: `var data []Model` stays nil with nothing pulled, so "data" is null.
  modelList: (models, created) => ({ object: "list", data: models.length ? models.map((id) => ({ id, object: "model", created, owned_by: "library" })) : null }),
  envelope: (id, model, created, object) => ({ id, object, created, model, system_fingerprint: "fp_ollama" }),
};

/** llama.cpp's `llama-server` (started with `--jinja`, and `--api-key` when a key is set). */
const llamaServer: Flavour = {
  name: "llama-server",
  style: "llama-server",
  prefixes: ["/v1", ""],
  notFound: () => ({ status: 404, body: llamaServer.error(404, "File Not Found") }),
  keyStatus: 401,
  streamsToolCallsAsText: false,
  // tools/server: an exception while the request is read (the chat template's too) is answered as a server_error, HTTP 500.
  templateErrorStatus: 500,
  defaultModels: ["Qwen3-8B-Q4_K_M.gguf"],
  checksKey: true,
  publicModelList: true,
  anyModelName: true,
  wholeToolCalls: false,
  reasoningField: "reasoning_content",
  parallelNeedsFlag: true,
  parsesHistoryArguments: false,
  callId: (random) => randomString(32, random),
  error: (status, message, extra = {}) => ({
    error: {
      code: status,
      message,
      type:
        extra.type ??
        (status === 401 ? "authentication_error" : status === 404 ? "not_found_error" : status === 503 ? "unavailable_error" : status >= 500 ? "server_error" : "invalid_request_error"),
    },
  }),
  unknownModel: (model) => ({ status: 404, body: llamaServer.error(404, `model ${model} not found`) }),
  missingKey: () => llamaServer.error(401, "Invalid API Key"),
  wrongKey: () => llamaServer.error(401, "Invalid API Key"),
  // Both conventions in one body, as llama-server sends them: Ollama's `models` and OpenAI's `data`, whose
  // `meta` holds the training length `n_ctx_train`, not the running window (tools/server/README.md, GET /v1/models).
  modelList: (models, created) => ({
    models: models.map((name) => ({
      name,
      model: name,
      modified_at: "",
      size: "",
      digest: "",
      type: "model",
      description: "",
      tags: [""],
      capabilities: ["completion"],
      parameters: "",
      details: { parent_model: "", format: "gguf", family: "", families: [""], parameter_size: "", quantization_level: "" },
    })),
    object: "list",
    data: models.map((id) => ({
      id,
      aliases: [],
      tags: [],
      object: "model",
      created,
      owned_by: "llamacpp",
      meta: { vocab_type: 2, n_vocab: 151936, n_ctx_train: 40960, n_embd: 4096, n_params: 8190735360, size: 5027783488 },
    })),
  }),
  envelope: (id, model, created, object) => ({ created, id, model, system_fingerprint: "b6500-fake", object }),
};

export const FLAVOURS: Record<FakeFlavour, Flavour> = { openai, ollama, "llama-server": llamaServer, vllm, lmstudio, "gemini-openai": geminiOpenAi };

/** The fault bodies each server sends, in its words. */
export function faultMessage(flavour: FakeFlavour, fault: "rate_limit" | "quota" | "server_error" | "unavailable" | "mid_stream", model: string): string {
  const words: Record<"openai" | "ollama" | "llama-server", Record<typeof fault, string>> = {
    openai: {
      rate_limit: `Rate limit reached for ${model} in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
      quota: "You exceeded your current quota, please check your plan and billing details.",
      server_error: "The server had an error while processing your request. Sorry about that!",
      unavailable: "The engine is currently overloaded, please try again later.",
      mid_stream: "The server had an error while processing your request. Sorry about that!",
    },
    ollama: {
      rate_limit: "too many requests",
      quota: "too many requests",
      server_error: "llama runner process has terminated: exit status 2",
      unavailable: "server busy, please try again.  maximum pending requests exceeded",
      mid_stream: "llama runner process has terminated: exit status 2",
    },
    "llama-server": {
      rate_limit: "too many requests",
      quota: "too many requests",
      server_error: "Internal server error",
      unavailable: "Loading model",
      mid_stream: "Context size has been exceeded.",
    },
  };
  // The servers that came later speak of faults as OpenAI does.
  return words[flavour === "ollama" || flavour === "llama-server" ? flavour : "openai"][fault];
}
