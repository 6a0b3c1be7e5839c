import { describeError } from "../../shared/index.js";
import { displayUrl } from "../server-words.js";
import type { ServedModelList } from "../types.js";
import { apiRoot } from "./endpoint.js";
import { WireModelListSchema } from "./wire.js";

export interface ServedModel {
  id: string;
  /** The window the server says a request gets (vLLM's `max_model_len`); Ollama and OpenAI do not say. */
  contextWindow?: number;
}

/** What `GET /v1/models` told: the models, or why the server could not be asked. */
export type ServedModels = ServedModelList;

/**
 * Asks an OpenAI-compatible server which models it serves. Never throws:
 * an unreachable server, a refusal or an unreadable answer come back as
 * `reached: false` with the reason in words. Ollama's `"data": null` (no
 * model pulled) is an empty list, not a malformed answer.
 */
export async function servedModels(args: { baseUrl: string; apiKey?: string | undefined; fetch?: typeof fetch | undefined; timeoutMs?: number }): Promise<ServedModelList> {
  const server = displayUrl(args.baseUrl);
  const headers: Record<string, string> = { accept: "application/json" };
  if (args.apiKey) headers.authorization = `Bearer ${args.apiKey}`;
  let response: Response;
  try {
    response = await (args.fetch ?? fetch)(`${apiRoot(args.baseUrl)}/models`, { headers, signal: AbortSignal.timeout(args.timeoutMs ?? 5_000) });
  } catch (err) {
    return { reached: false, reason: `the server at ${server} could not be reached (${describeError(err)})` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    const hint = response.status === 401 || response.status === 403 ? "; check openai_api_key" : "";
    return { reached: false, reason: `the server at ${server} answered HTTP ${response.status} to GET /models${hint}` };
  }
  const json: unknown = await response.json().catch(() => undefined);
  const parsed = WireModelListSchema.safeParse(json);
  if (!parsed.success) return { reached: false, reason: `the server at ${server} sent a model list that is not OpenAI's shape` };
  const ollama = isObject(json) && json.data === null;
  return {
    reached: true,
    models: parsed.data.data.map((m) => {
      const window = m.max_model_len ?? m.meta?.n_ctx;
      return { id: m.id, ...(window ? { contextWindow: window } : {}) };
    }),
    emptyHint: ollama ? "pull a model first: `ollama pull qwen3:8b`" : "load or pull one there (Ollama: `ollama pull qwen3:8b`)",
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
