import type { GenerateOptions, GenerateRequest, GenerateResult, ModelClient, ModelFacts, ServerFacts, TokenCount } from "./types.js";

/**
 * A client whose server could not be asked yet (it was down at start).
 * Each call asks again; once the server answers, the client made from its
 * answer takes over for good. Until then calls go to `fallback`, which
 * fails with the server's own reason when it is still unreachable.
 */
export class PendingClient implements ModelClient {
  readonly model: string;
  readonly #args: { provider: string; model: string; label: string; facts: ModelFacts; settle: () => Promise<ModelClient | undefined>; fallback: () => ModelClient };
  #settled: ModelClient | undefined;
  #settling: Promise<ModelClient | undefined> | undefined;

  constructor(args: { provider: string; model: string; label: string; facts: ModelFacts; settle: () => Promise<ModelClient | undefined>; fallback: () => ModelClient }) {
    this.#args = args;
    this.model = args.model;
  }

  get provider(): string {
    return this.#settled?.provider ?? this.#args.provider;
  }

  get label(): string {
    return this.#settled?.label ?? this.#args.label;
  }

  get facts(): ModelFacts {
    return this.#settled?.facts ?? this.#args.facts;
  }

  get server(): ServerFacts | undefined {
    return this.#settled?.server;
  }

  async generate(request: GenerateRequest, options?: GenerateOptions): Promise<GenerateResult> {
    return (await this.#client()).generate(request, options);
  }

  async countTokens(request: GenerateRequest, options?: { signal?: AbortSignal }): Promise<TokenCount> {
    return (await this.#client()).countTokens(request, options);
  }

  async close(): Promise<void> {
    await this.#settled?.close();
  }

  /** The settled client, once there is one; for `model:check`, which reports the server. */
  async settle(): Promise<ModelClient> {
    return this.#client();
  }

  async #client(): Promise<ModelClient> {
    if (this.#settled) return this.#settled;
    // Concurrent calls share one question to the server.
    this.#settling ??= this.#args.settle().finally(() => (this.#settling = undefined));
    const settled = await this.#settling;
    if (settled) this.#settled = settled;
    return settled ?? this.#args.fallback();
  }
}
