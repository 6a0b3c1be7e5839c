/** A Gemini request as the fake sees it: the body of generateContent. */
export interface GeminiRequestBody {
  contents?: { role?: string; parts?: Record<string, unknown>[] }[];
  systemInstruction?: { parts?: { text?: string }[] };
  tools?: { functionDeclarations?: { name: string; description?: string; parametersJsonSchema?: unknown }[] }[];
  generationConfig?: Record<string, unknown>;
}

/** One scripted answer. */
export interface GeminiReply {
  text?: string;
  /** Thinking text, sent as a `thought: true` part before the answer. */
  thought?: string;
  /** Function calls, all in one model turn: several mean parallel calls. */
  calls?: { name: string; args?: Record<string, unknown> }[];
  /**
   * Gemini's own finish reason. `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL` and `MAX_TOKENS`
   * come without text or calls when the reply has none.
   */
  finishReason?: string;
  /** What Gemini says about the finish (`Malformed function call: …`). */
  finishMessage?: string;
  usage?: { prompt?: number; output?: number; thoughts?: number; cached?: number };
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait this long between streamed chunks. */
  chunkDelayMs?: number;
  /**
   * A failure instead of an answer: 429 with RetryInfo, 500, 503, an error
   * after the first chunk, a safety stop, or a blocked prompt.
   */
  fault?: "rate_limit" | "server_error" | "unavailable" | "mid_stream_error" | "safety" | "prompt_blocked";
  /** For `rate_limit`: the RetryInfo delay, e.g. "2s". */
  retryDelay?: string;
}

export type GeminiResponder = (body: GeminiRequestBody, context: { model: string }) => GeminiReply | Promise<GeminiReply>;

/** What the fake received, for tests to prove a call was made, or not. */
export interface GeminiRequestLog {
  model: string;
  method: string;
  stream: boolean;
  body: GeminiRequestBody;
  status: number;
  /** The client went away before the answer was complete (an abort). */
  disconnected: boolean;
}
