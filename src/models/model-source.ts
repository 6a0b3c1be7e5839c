import type { Clock, Logger } from "../shared/index.js";
import { describeError } from "../shared/index.js";
import type { ModelProviderRegistry } from "./registry.js";
import type { ModelClient, ModelProviderDeps } from "./types.js";

/** The model settings, as the options name them. */
export interface ModelSettings {
  provider: string;
  model: string;
  geminiApiKey?: string;
  geminiBaseUrl?: string;
  openaiBaseUrl?: string;
  openaiApiKey?: string;
}

export interface ModelSource {
  /** The client for `name` (the configured model when omitted), or undefined when no model is configured. */
  get(name?: string): Promise<ModelClient | undefined>;
  /** Why there is no model, naming the options to set. */
  missing(): string;
  /** What /healthz and the status page say about the model. */
  describe(): { status: "not configured" | "configured"; provider: string; model: string; label?: string };
  /** Creates the default client, so its settings are checked before the first turn needs them. */
  init(): Promise<void>;
  close(): Promise<void>;
}

/** The options each provider needs, or a message naming what is missing. */
function providerOptions(settings: ModelSettings, model: string): { options: Record<string, unknown> } | { missing: string } {
  switch (settings.provider) {
    case "gemini":
      if (!settings.geminiApiKey) return { missing: "No model is configured: set gemini_api_key (GEMINI_API_KEY) to a Gemini API key from Google AI Studio, or set model_provider to openai with openai_base_url." };
      return { options: { apiKey: settings.geminiApiKey, model, ...(settings.geminiBaseUrl ? { baseUrl: settings.geminiBaseUrl } : {}) } };
    case "openai":
      if (!settings.openaiBaseUrl) return { missing: "No model is configured: set openai_base_url (OPENAI_BASE_URL) to your OpenAI-compatible server, e.g. http://192.168.1.20:11434/v1 for Ollama, and model to a model it serves." };
      return { options: { baseUrl: settings.openaiBaseUrl, model, ...(settings.openaiApiKey ? { apiKey: settings.openaiApiKey } : {}) } };
    default:
      return { options: { model } };
  }
}

/**
 * The configured provider's clients, one per model name (a turn may name
 * another model of the same provider). Creating one never calls the
 * network; a wrong key shows on the first call, with a message naming it.
 */
export function createModelSource(deps: { registry: ModelProviderRegistry; settings: ModelSettings; clock: Clock; logger: Logger } & Omit<ModelProviderDeps, "clock" | "logger">): ModelSource {
  const clients = new Map<string, Promise<ModelClient>>();
  let defaultClient: ModelClient | undefined;
  const configured = !("missing" in providerOptions(deps.settings, deps.settings.model));

  async function create(model: string): Promise<ModelClient> {
    const prepared = providerOptions(deps.settings, model);
    if ("missing" in prepared) throw new Error(prepared.missing);
    const { registry, settings, ...providerDeps } = deps;
    const client = await registry.create(settings.provider, prepared.options, providerDeps);
    if (model === settings.model) defaultClient = client;
    return client;
  }

  return {
    async get(name) {
      if (!configured) return undefined;
      const model = name ?? deps.settings.model;
      let client = clients.get(model);
      if (!client) {
        client = create(model);
        clients.set(model, client);
        // A failed setup is not kept: the next turn tries again.
        client.catch((err: unknown) => {
          clients.delete(model);
          deps.logger.warn({ model, err: describeError(err) }, "could not set up the model");
        });
      }
      return client;
    },
    missing() {
      const prepared = providerOptions(deps.settings, deps.settings.model);
      return "missing" in prepared ? prepared.missing : `The model ${deps.settings.model} could not be set up; see HA Agent's log.`;
    },
    describe() {
      return { status: configured ? "configured" : "not configured", provider: deps.settings.provider, model: deps.settings.model, ...(defaultClient ? { label: defaultClient.label } : {}) };
    },
    async init() {
      await this.get();
    },
    async close() {
      const all = await Promise.allSettled([...clients.values()]);
      clients.clear();
      await Promise.all(all.map((r) => (r.status === "fulfilled" ? r.value.close().catch(() => undefined) : undefined)));
    },
  };
}
