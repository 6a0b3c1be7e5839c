import { HaAgentError } from "../shared/index.js";
import type { ModelClient, ModelProvider, ModelProviderDeps } from "./types.js";

export class ModelProviderError extends HaAgentError {}

/** The single list of model providers; built-ins and user-defined ones register the same way. */
export class ModelProviderRegistry {
  readonly #providers = new Map<string, ModelProvider>();

  register(provider: ModelProvider): void {
    if (this.#providers.has(provider.name)) {
      throw new ModelProviderError("duplicate_provider", `A model provider named "${provider.name}" is already registered; give the new one another name.`);
    }
    this.#providers.set(provider.name, provider);
  }

  get(name: string): ModelProvider | undefined {
    return this.#providers.get(name);
  }

  list(): ModelProvider[] {
    return [...this.#providers.values()];
  }

  /** The providers `model_provider` may name (not the demo model). */
  selectable(): ModelProvider[] {
    return this.list().filter((p) => p.selectable);
  }

  /** Validates the options against the provider's schema and creates its client. */
  async create(name: string, rawOptions: unknown, deps: ModelProviderDeps): Promise<ModelClient> {
    const provider = this.#providers.get(name);
    if (!provider) {
      const known = this.list().map((p) => p.name).join(", ");
      throw new ModelProviderError("unknown_provider", `There is no model provider "${name}". Set model_provider to one of: ${known}.`);
    }
    const parsed = provider.options.safeParse(rawOptions);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ");
      throw new ModelProviderError("invalid_provider_options", `The ${name} model provider's settings are not valid: ${problems}.`);
    }
    return provider.create(parsed.data, deps);
  }
}
