import { describeError } from "../../shared/index.js";
import { apiRoot, displayUrl } from "./endpoint.js";
import { WireModelListSchema } from "./wire.js";

export interface ServedModel {
  id: string;
  /** The window the server says a request gets (llama-server's `meta.n_ctx`); Ollama and OpenAI do not say. */
  contextWindow?: number;
}

/** What `GET /v1/models` told: the models, or why the server could not be asked. */
export type ServedModels = { reached: true; models: ServedModel[] } | { reached: false; reason: string };

/**
 * Asks an OpenAI-compatible server which models it serves. Never throws:
 * an unreachable server, a refusal or an unreadable answer come back as
 * `reached: false` with the reason in words.
 */
export async function servedModels(args: { baseUrl: string; apiKey?: string; fetch?: typeof fetch; timeoutMs?: number }): Promise<ServedModels> {
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
  const parsed = WireModelListSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) return { reached: false, reason: `the server at ${server} sent a model list that is not OpenAI's shape` };
  return { reached: true, models: parsed.data.data.map((m) => ({ id: m.id, ...(m.meta?.n_ctx ? { contextWindow: m.meta.n_ctx } : {}) })) };
}
