import { describeError } from "../../shared/index.js";
import { PendingClient } from "../pending-client.js";
import { displayUrl } from "../server-words.js";
import type { ModelClient, ModelProviderDeps, ServedModelList } from "../types.js";
import type { OllamaOptions } from "./options.js";
import { ShowSchema, TagsSchema } from "./wire.js";
import { shownModel, type ShownModel } from "./window.js";

/** How long start-up waits for Ollama's answers about the model. */
const INSPECT_TIMEOUT_MS = 5_000;

/**
 * An Ollama client whose `num_ctx` fits the model: `/api/show` says how
 * long a context the model supports. When Ollama cannot be reached yet, the
 * client asks again at each call, so the window is right once it is up.
 * The `ollama` package is loaded with the first client, not at boot, as
 * the Gemini SDK is: a home that uses another provider does not load it.
 */
export async function createOllamaClient(options: OllamaOptions, deps: ModelProviderDeps): Promise<ModelClient> {
  const { OllamaClient } = await import("./client.js");
  const found = await inspect(options, deps.fetch ?? fetch);
  if (found.reached) return new OllamaClient(options, deps, found);
  const provisional = new OllamaClient(options, deps);
  return new PendingClient({
    provider: provisional.provider,
    model: options.model,
    label: provisional.label,
    facts: provisional.facts,
    settle: async () => {
      const again = await inspect(options, deps.fetch ?? fetch);
      return again.reached ? new OllamaClient(options, deps, again) : undefined;
    },
    fallback: () => provisional,
  });
}

/** `/api/version` and `/api/show`, asked at once; a model Ollama lacks is left for the first call to report. */
async function inspect(options: OllamaOptions, fetcher: typeof fetch): Promise<{ reached: boolean; shown?: ShownModel; version?: string }> {
  const signal = AbortSignal.timeout(INSPECT_TIMEOUT_MS);
  const [version, show] = await Promise.all([
    fetcher(`${options.url}/api/version`, { signal }).then(async (r) => (r.ok ? ((await r.json()) as { version?: unknown }).version : undefined)).catch(() => null),
    fetcher(`${options.url}/api/show`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: options.model }), signal })
      .then(async (r) => (r.ok ? ShowSchema.safeParse(await r.json()) : undefined))
      .catch(() => null),
  ]);
  if (version === null && show === null) return { reached: false };
  return { reached: true, ...(show?.success ? { shown: shownModel(show.data) } : {}), ...(typeof version === "string" ? { version } : {}) };
}

/** `GET /api/tags`: the models Ollama has pulled. Never throws. */
export async function ollamaTags(args: { url: string; fetch?: typeof fetch | undefined; timeoutMs: number }): Promise<ServedModelList> {
  const server = displayUrl(args.url);
  try {
    const response = await (args.fetch ?? fetch)(`${args.url}/api/tags`, { signal: AbortSignal.timeout(args.timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return { reached: false, reason: `Ollama at ${server} answered HTTP ${response.status} to GET /api/tags; check ollama_url (Ollama's root, such as http://192.168.1.20:11434)` };
    }
    const parsed = TagsSchema.safeParse(await response.json());
    if (!parsed.success) return { reached: false, reason: `the server at ${server} sent a model list that is not Ollama's` };
    return { reached: true, models: (parsed.data.models ?? []).map((m) => ({ id: m.name })), emptyHint: "pull a model first: `ollama pull qwen3:8b`" };
  } catch (err) {
    return { reached: false, reason: `Ollama at ${server} could not be reached (${describeError(err)})` };
  }
}
