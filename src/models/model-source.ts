import type { Clock, Logger } from "../shared/index.js";
import { describeError } from "../shared/index.js";
import { ClientCache } from "./client-cache.js";
import { ModelChoiceError } from "./model-choice-error.js";
import { checkAllowed, checkChoice, type ModelChoicePolicy } from "./model-choice.js";
import type { ModelProviderRegistry } from "./registry.js";
import type { ModelClient, ModelProviderDeps, ModelSettings, ProviderOptions, ServedModelFacts as ServedModel } from "./types.js";

export type { ModelSettings } from "./types.js";

export interface ModelSource {
  /**
   * The client for `name` (the configured model when omitted), or undefined
   * when no model is configured. A name `allowed_models` does not list is
   * refused (ModelNotAllowedError) before anything is set up.
   */
  get(name?: string): Promise<ModelClient | undefined>;
  /**
   * Refuses (ModelNotAllowedError) a model this caller may not choose: one
   * not allowed, or one other than the configured model from someone who is
   * not an administrator, unless `model_choice_for_everyone`.
   */
  check(name: string | undefined, caller: { isAdmin: boolean }): void;
  /** How many clients are held (set up, being set up, or a remembered failure), the configured one included. */
  heldClients(): number;
  /** Why there is no model, naming the options to set. */
  missing(): string;
  /** What /healthz and the status page say about the model. */
  describe(): { status: "not configured" | "configured"; provider: string; model: string; label?: string };
  /**
   * Settles which model to use, before the program serves anyone. With a
   * local server (OpenAI-compatible, or Ollama) and no model name, it asks
   * the server: its one model is used; several or none throw
   * ModelChoiceError. A server that cannot be reached leaves the model not
   * configured, and each later get() asks again.
   */
  init(): Promise<void>;
  close(): Promise<void>;
}

/** How long start-up waits for an OpenAI-compatible server's model list. */
const DISCOVERY_TIMEOUT_MS = 5_000;
/** Clients kept besides the configured model's; allowed_models is usually shorter. */
const MAX_OTHER_CLIENTS = 8;
/** How long a failed set-up is answered from memory before it is tried again. */
const FAILURE_MEMORY_MS = 60_000;

/** The provider's options for `model`, or what is missing; an unknown provider names the ones there are. */
function providerOptions(args: { registry: ModelProviderRegistry; settings: ModelSettings; model: string | undefined; served?: ServedModel | undefined }): ProviderOptions {
  const { registry, settings, model, served } = args;
  const provider = registry.get(settings.provider);
  if (!provider) return { missing: `No model is configured: model_provider (MODEL_PROVIDER) "${settings.provider}" is not a model provider; set it to one of ${registry.selectable().map((p) => p.name).join(", ")}.` };
  return provider.optionsFrom({ settings, model, ...(served ? { served } : {}) });
}

/** The one line that says why the server's list does not settle the model. */
function choiceProblem(server: string, models: ServedModel[], emptyHint: string): string {
  if (models.length === 0) return `model (MODEL) is not set and the server at ${server} has no models: ${emptyHint}, or set model to the one to use.`;
  const shown = models.slice(0, 20).map((m) => m.id).join(", ");
  const more = models.length > 20 ? ` and ${models.length - 20} more` : "";
  return `model (MODEL) is not set and the server at ${server} serves ${models.length} models: set model to one of ${shown}${more}.`;
}

/**
 * The configured provider's clients, one per model name (a turn may name
 * another model of the same provider). Creating one never calls the
 * network for Gemini; a wrong key shows on the first call, with a message
 * naming it. A local server's client asks it about the model as it is made
 * (its window), and one without a model name is asked for its list of
 * models (see `init`).
 */
export function createModelSource(deps: { registry: ModelProviderRegistry; settings: ModelSettings; clock: Clock; logger: Logger } & Omit<ModelProviderDeps, "clock" | "logger">): ModelSource {
  const { settings } = deps;
  const policy: ModelChoicePolicy = { allowed: settings.allowedModels ?? [], forEveryone: settings.modelChoiceForEveryone ?? false };
  let defaultClient: ModelClient | undefined;
  const provider = deps.registry.get(settings.provider);
  const discovers = provider?.discoversModel?.(settings) === true;
  let served: ServedModel | undefined;
  let discoveryProblem: string | undefined;
  let discovering: Promise<string[] | undefined> | undefined;
  const modelName = () => settings.model ?? provider?.defaultModel ?? served?.id;
  const configured = () => !("missing" in providerOptions({ registry: deps.registry, settings, model: modelName() }));
  const clients = new ClientCache<ModelClient>({
    clock: deps.clock,
    max: MAX_OTHER_CLIENTS,
    failureMs: FAILURE_MEMORY_MS,
    keep: (model) => model === modelName(),
    onFailure: (model, err) => deps.logger.warn({ model, err: describeError(err) }, `could not set up the model; trying again after ${FAILURE_MEMORY_MS / 1_000} s`),
  });

  /** Asks the server once (concurrent callers share the answer); returns the models when they do not settle it. */
  function discover(timeoutMs: number): Promise<string[] | undefined> {
    discovering ??= (async () => {
      const server = (settings.provider === "ollama" ? settings.ollamaUrl : settings.openaiBaseUrl) ?? "(not set)";
      const asked = provider?.servedModels;
      if (!asked) return undefined;
      const answer = await asked({ settings, fetch: deps.fetch, timeoutMs });
      if (!answer.reached) {
        discoveryProblem = `No model is configured: model (MODEL) is not set, and ${answer.reason} to ask which model it serves. Set model, or start the server; HA Agent asks again at the next turn.`;
        return undefined;
      }
      if (answer.models.length === 1) {
        served = answer.models[0];
        discoveryProblem = undefined;
        deps.logger.info({ model: served!.id, contextWindow: served!.contextWindow }, `model is not set; using ${served!.id}, the one model the server serves`);
        return undefined;
      }
      discoveryProblem = choiceProblem(server, answer.models, answer.emptyHint);
      return answer.models.map((m) => m.id);
    })().finally(() => (discovering = undefined));
    return discovering;
  }

  async function create(model: string): Promise<ModelClient> {
    const prepared = providerOptions({ registry: deps.registry, settings, model, served });
    if ("missing" in prepared) throw new Error(prepared.missing);
    const { registry, settings: _settings, ...providerDeps } = deps;
    const client = await registry.create(settings.provider, prepared.options, providerDeps);
    if (model === modelName()) defaultClient = client;
    return client;
  }

  return {
    async get(name) {
      if (discovers && !served) await discover(DISCOVERY_TIMEOUT_MS);
      if (!configured()) return undefined;
      // Checked after discovery, which may settle what the configured model is.
      checkAllowed({ name, configured: modelName(), policy });
      const model = name ?? (modelName() as string);
      return clients.get(model, () => create(model));
    },
    check(name, caller) {
      checkChoice({ name, configured: modelName(), policy, caller });
    },
    heldClients() {
      return clients.size;
    },
    missing() {
      if (discoveryProblem) return discoveryProblem;
      const prepared = providerOptions({ registry: deps.registry, settings, model: modelName() });
      return "missing" in prepared ? prepared.missing : `The model ${modelName()} could not be set up; see HA Agent's log.`;
    },
    describe() {
      return {
        status: configured() ? "configured" : "not configured",
        provider: settings.provider,
        model: modelName() ?? "(not set)",
        ...(defaultClient ? { label: defaultClient.label } : {}),
      };
    },
    async init() {
      if (!discovers || served) return;
      const several = await discover(DISCOVERY_TIMEOUT_MS);
      if (several) throw new ModelChoiceError(discoveryProblem as string);
    },
    async close() {
      const all = await clients.drain();
      await Promise.all(all.map((client) => client.close().catch(() => undefined)));
    },
  };
}
