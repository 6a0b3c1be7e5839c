import type { JsonValue } from "../json.js";
import type { FakeFlavour } from "./types.js";

type Json = { [key: string]: JsonValue };

/** What differs between the servers the fake imitates. */
export interface Flavour {
  name: FakeFlavour;
  /** The chunk layout it streams in: OpenAI's, Ollama's /v1 or llama-server's. */
  style: "openai" | "ollama" | "llama-server";
  /** Where its API answers: `/v1`, llama-server also at the root, Google under `/v1beta/openai`. */
  prefixes: string[];
  /** Its answer to a path it does not serve. */
  notFound(method: string, path: string): { status: number; body: JsonValue };
  /** The status of a refused key: 401, or Google's 400. */
  keyStatus: number;
  /** Streams tool calls as text in the content instead of as `tool_calls` (LM Studio's bug). */
  streamsToolCallsAsText: boolean;
  /** How a chat template that raises is answered: llama-server says 500, Python servers 400. */
  templateErrorStatus: number;
  defaultModels: string[];
  /** Ollama has no keys at all; llama-server leaves its model list public. */
  checksKey: boolean;
  publicModelList: boolean;
  /** llama-server serves one model and answers to any model name. */
  anyModelName: boolean;
  /** Ollama sends each call whole; the others send argument fragments. */
  wholeToolCalls: boolean;
  reasoningField: "reasoning" | "reasoning_content" | undefined;
  /** llama-server makes one call per turn unless `parallel_tool_calls: true`. */
  parallelNeedsFlag: boolean;
  /** Ollama refuses a history whose tool call arguments are not JSON. */
  parsesHistoryArguments: boolean;
  callId(random: () => number): string;
  /** The error body for a status and a message, in the server's own shape (Google's is a JSON array). */
  error(status: number, message: string, extra?: { type?: string; code?: string | null; param?: string | null }): JsonValue;
  unknownModel(model: string): { status: number; body: JsonValue };
  missingKey(): JsonValue;
  wrongKey(sent: string): JsonValue;
  /** `GET /v1/models`; `contextSize` is the window a request gets, which vLLM reports as `max_model_len`. */
  modelList(models: string[], created: number, contextSize: number): Json;
  /** Fields every chunk and completion carries besides `choices` and `usage`. */
  envelope(id: string, model: string, created: number, object: string): Json;
}

