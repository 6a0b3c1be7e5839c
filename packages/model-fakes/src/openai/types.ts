import type { JsonValue } from "../json.js";
import type { SeenPrompt } from "../prompt-view.js";

/** Which server the fake behaves like. */
export type FakeFlavour = "openai" | "ollama" | "llama-server" | "vllm" | "lmstudio" | "gemini-openai";
export const FAKE_FLAVOURS: readonly FakeFlavour[] = ["openai", "ollama", "llama-server", "vllm", "lmstudio", "gemini-openai"];

export interface FakeToolCall {
  name: string;
  args?: { [key: string]: JsonValue };
  /** Sent instead of the JSON of `args`: broken JSON, `""`, anything a model may write. */
  argumentsText?: string;
  /** The call id; by default one in the flavour's style. `null` sends none (old servers). */
  id?: string | null;
}

/** A scripted answer: what the model "says". */
export interface FakeAnswer {
  text?: string;
  /** Thinking text: Ollama's `reasoning`, llama-server's `reasoning_content`. The openai flavour sends none (OpenAI does not). */
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  /** Default: `tool_calls` when there are calls, else `stop`. */
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
  /** OpenAI's refusal text (structured outputs); sent as `refusal` deltas. */
  refusal?: string;
  /** Figures to report, or false to report none even when asked. Default: counted from the text. */
  usage?: { promptTokens: number; completionTokens: number; reasoningTokens?: number; cachedTokens?: number } | false;
  /** Wait before the answer starts (a slow server). */
  delayMs?: number;
  /** Wait between streamed chunks, from the first content on. */
  chunkDelayMs?: number;
}

/** A scripted failure. */
export type FakeFault =
  /** 429. `retryAfter` becomes the `Retry-After` header as written (seconds, or an HTTP date); `retryAfterMs` becomes `retry-after-ms`. */
  | { fault: "rate_limit"; retryAfter?: string | number; retryAfterMs?: number }
  /** 429 `insufficient_quota`: OpenAI's out-of-credit answer, which no wait fixes. */
  | { fault: "quota" }
  | { fault: "server_error" }
  | { fault: "unavailable" }
  | { fault: "bad_request"; message?: string }
  /** Streams `text`, then an error event, then ends. Without streaming it is a 500. */
  | { fault: "mid_stream_error"; text?: string }
  /** Streams `text`, then cuts the connection without an end. */
  | { fault: "drop"; text?: string };

export type FakeReply = FakeAnswer | FakeFault;

/** A chat request as the fake received it, for responders. */
export interface FakeChatRequest {
  model: string;
  messages: { [key: string]: JsonValue }[];
  stream: boolean;
  body: { [key: string]: JsonValue };
  /** What the model gets to see: all of it, or, on Ollama, what is left after cutting the prompt to the window. */
  seen: SeenPrompt;
  /** The temperature the model runs at: the request's, else the server's default (Ollama's /v1: 1.0). */
  temperature: number | undefined;
}

export type FakeResponder = (request: FakeChatRequest) => FakeReply | Promise<FakeReply>;

/** One request the fake served. */
export interface FakeLogEntry {
  method: string;
  path: string;
  /** The parsed JSON body, when there was one. */
  body: { [key: string]: JsonValue } | undefined;
  /** Whether an `Authorization: Bearer` header came with it (the key itself is not logged). */
  authorized: boolean;
  status: number;
  /** The kind of reply: `answer`, a fault name, or why the request was refused (`auth`, `unknown_model`, `history`, `invalid`, `no_script`). */
  outcome: string;
  /** True when the connection closed before the answer was complete: the client went away (an abort), or a `drop` fault cut it. */
  disconnected: boolean;
  /** For chat requests that reached the model: what it saw, and its temperature. */
  seen?: SeenPrompt;
  temperature?: number | undefined;
}
