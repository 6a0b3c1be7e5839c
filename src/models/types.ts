import type { z } from "zod";
import type { Clock, Logger } from "../shared/index.js";
import type { ConversationItem, FinishReason, JsonValue, ModelTurn, ModelUsage, ToolCall } from "./schemas.js";

/** A tool as the model sees it: the base name, a description and a JSON Schema of its arguments. */
export interface ToolDeclaration {
  name: string;
  description: string;
  /** JSON Schema (draft 7 or later) of an object: from the tool's zod input schema. */
  parameters: Record<string, JsonValue>;
}

/** One model invocation. Everything a provider needs to render its own wire request. */
export interface GenerateRequest {
  /** The system instruction: policy, tool guidance, home overview, memory. */
  system: string;
  conversation: ConversationItem[];
  /** Empty, or left out, for a call that must answer in text (e.g. the last call after a budget ran out). */
  tools?: ToolDeclaration[];
  maxOutputTokens?: number;
  temperature?: number;
}

/** What streaming reports as it arrives; `text` and `thinking` are deltas. */
export interface PartialOutput {
  text?: string;
  thinking?: string;
}

export interface GenerateOptions {
  /** Aborts the call at once, retries included. */
  signal?: AbortSignal;
  /** Called with each streamed delta. Without it the call may still stream; it just reports nothing. */
  onPartial?: (partial: PartialOutput) => void;
  /** No retry starts after this moment (epoch ms). Default: retries are bounded only by their own count. */
  deadline?: number;
  /** Overrides the client's streaming setting for this call (`model:check` compares both ways). */
  stream?: boolean;
}

export interface GenerateResult {
  /** Journal this, then send it back in the conversation on the next call. */
  turn: ModelTurn;
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** The provider's own finish reason as it said it (`MALFORMED_FUNCTION_CALL`, `length`), for messages. */
  finishDetail?: string;
  /** Set when finishReason is `safety`: what the provider said, in words a user can read. */
  refusal?: string;
  usage: ModelUsage;
  /** Wall time of the call that answered, retries and their waits included. */
  durationMs: number;
}

/** Limits of a model, from the built-in table or the options. */
export interface ModelFacts {
  model: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** False when the model is not in the table and the figures are conservative guesses. */
  known: boolean;
  /** Where `contextWindow` came from, in words (`llama-server /props n_ctx`), when not the table. */
  windowSource?: string;
}

/** What kind of server answers, as far as the client could tell, for `model:check` and the log. */
export interface ServerFacts {
  /** `ollama`, `llama-server`, `vllm`, `lmstudio`, `openai`, `gemini`, or `unknown`. */
  kind: ServerKind;
  /** How a person names it: `Ollama 0.13.5`, `llama-server b6500`, `vLLM`. */
  name: string;
  /** The URL the client talks to, without credentials. */
  url: string;
  /** Which API: `Ollama's own API (/api/chat)` or `its OpenAI-compatible API (/chat/completions)`. */
  api: string;
}

export type ServerKind = "ollama" | "llama-server" | "vllm" | "lmstudio" | "openai" | "gemini" | "unknown";

export interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/** A configured model: one provider, one model, ready to call. */
export interface ModelClient {
  /** `gemini`, `openai` or `demo`. */
  readonly provider: string;
  readonly model: string;
  /** What a user reads wherever the model is named, e.g. "Demo model (scripted, not an AI)". */
  readonly label: string;
  readonly facts: ModelFacts;
  /** The server behind the client, once known; Gemini's own API leaves it out. */
  readonly server?: ServerFacts;
  /** One model invocation. Rejects only with a `ModelError`; a safety block is a result, not an error. */
  generate(request: GenerateRequest, options?: GenerateOptions): Promise<GenerateResult>;
  /** The provider's own count where it has one, else an estimate. */
  countTokens(request: GenerateRequest, options?: { signal?: AbortSignal }): Promise<TokenCount>;
  /** Releases sockets or embedded servers (the demo model's). */
  close(): Promise<void>;
}

export interface ModelProviderDeps {
  clock: Clock;
  logger: Logger;
  /** For tests and proxies; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Waits between retries; tests pass one that does not really wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); tests pin it. */
  random?: () => number;
}

/** The model settings, as the options name them. */
export interface ModelSettings {
  provider: string;
  /** Unset to take the provider's default, or for a server that is asked which model it serves. */
  model?: string;
  /** The context window to assume where the server does not report one (`model_context_tokens`). */
  contextTokens?: number;
  geminiApiKey?: string;
  geminiBaseUrl?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  /** Ollama's root, e.g. http://192.168.1.20:11434 (`ollama_url`). */
  ollamaUrl?: string;
  /** Sent only when set (`model_temperature`): otherwise the model's own settings apply. */
  temperature?: number;
  /** False asks servers for whole answers (`model_stream`), for servers whose streamed tool calls are broken. */
  stream?: boolean;
  /** How long Ollama keeps the model loaded after a call (`keep_alive`): `5m`, `1h`, `-1` (always), `0`. */
  keepAlive?: string;
  /** Models besides the configured one that callers may name (`allowed_models`); the configured one is always allowed. */
  allowedModels?: readonly string[];
  /** Lets people who are not administrators choose among `allowedModels` (`model_choice_for_everyone`). */
  modelChoiceForEveryone?: boolean;
}

/** What a server says about a model it serves. */
export interface ServedModelFacts {
  id: string;
  contextWindow?: number;
}

/** What a server said when asked which models it serves. */
export type ServedModelList =
  | { reached: true; models: ServedModelFacts[]; /** What to do when the list is empty, in the server's terms. */ emptyHint: string }
  | { reached: false; reason: string };

/** A provider's options from the settings, or a message naming the options still to set. */
export type ProviderOptions = { options: Record<string, unknown> } | { missing: string };

/**
 * A model provider, in the same registry shape as tools and personas: a
 * name, a title, a description, a zod schema for its options, and one
 * function, `create`. The rest is what the program asks of it: how the
 * add-on's settings become its options, its default model, and whether it
 * can ask its server which model to use. Adding one is one folder and one
 * `register` line; the option `model_provider` accepts what is registered.
 */
export interface ModelProvider<O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  options: O;
  /** Chosen with `model_provider`; the demo provider serves demo mode only. */
  selectable: boolean;
  /** The model when `model` is not set, if the provider has one. */
  defaultModel?: string;
  /** The options for `model` from the settings, or what is missing, naming the options to set. */
  optionsFrom(args: { settings: ModelSettings; model: string | undefined; served?: ServedModelFacts }): ProviderOptions;
  /** Whether, with these settings and no model, the server is asked which model it serves. */
  discoversModel?(settings: ModelSettings): boolean;
  /** Asks the server which models it serves, for `discoversModel`. Never throws. */
  servedModels?(args: { settings: ModelSettings; fetch?: typeof fetch; timeoutMs: number }): Promise<ServedModelList>;
  create(options: z.infer<O>, deps: ModelProviderDeps): ModelClient | Promise<ModelClient>;
}

/**
 * The window to assume: what the server reports for the model (a hard
 * limit, so an option can only lower it), else the option, else nothing and
 * the model table decides.
 */
export function contextOf(settings: ModelSettings, served?: ServedModelFacts): { contextWindow?: number } {
  const windows = [served?.contextWindow, settings.contextTokens].filter((w): w is number => w !== undefined);
  return windows.length ? { contextWindow: Math.min(...windows) } : {};
}
