/**
 * Ollama through its own API, with the official `ollama` client (0.6.x), as
 * Home Assistant's own Ollama integration does. Ollama's OpenAI-compatible
 * `/v1` cannot set the context window: a longer prompt is cut from the
 * start there, and the system instruction and the tools go first. Its own
 * `/api/chat` takes `options.num_ctx`, so HA Agent asks for a window that
 * holds its requests, and `truncate: false` makes Ollama refuse a request
 * that does not fit instead of cutting it.
 */
import { Ollama, type ChatRequest } from "ollama";
import { ModelError } from "../errors.js";
import { estimateRequestTokens } from "../estimate.js";
import { modelFacts } from "../facts.js";
import { partialReporter } from "../partial-reporter.js";
import { abortableSleep, abortError, withRetries } from "../retry.js";
import { displayUrl, readErrorBody } from "../server-words.js";
import type { GenerateOptions, GenerateRequest, GenerateResult, ModelClient, ModelFacts, ModelProviderDeps, ServerFacts, TokenCount } from "../types.js";
import { applyPart, emptyOllamaDraft, ollamaResult } from "./answer.js";
import { ollamaError } from "./errors.js";
import { PROVIDER_NAME, renderMessages, renderTools } from "./messages.js";
import { keepAliveValue, type OllamaOptions } from "./options.js";
import { ChatPartSchema, PsSchema, TagsSchema } from "./wire.js";
import { chooseNumCtx, type ShownModel } from "./window.js";

type Attempt = Omit<GenerateResult, "durationMs">;

export class OllamaClient implements ModelClient {
  readonly provider = PROVIDER_NAME;
  readonly model: string;
  readonly label: string;
  readonly facts: ModelFacts;
  readonly server: ServerFacts;
  /** The `num_ctx` every call sends. */
  readonly numCtx: number;
  readonly #options: OllamaOptions;
  readonly #deps: ModelProviderDeps;
  readonly #fetch: typeof fetch;

  constructor(options: OllamaOptions, deps: ModelProviderDeps, found: { shown?: ShownModel; version?: string } = {}) {
    this.#options = options;
    this.#deps = deps;
    this.#fetch = deps.fetch ?? fetch;
    this.model = options.model;
    const url = displayUrl(options.url);
    this.label = `${options.model} (Ollama at ${url})`;
    const table = modelFacts(options.model, { maxOutputTokens: options.maxOutputTokens });
    const window = chooseNumCtx({ shown: found.shown, tableWindow: table.contextWindow, option: options.contextTokens });
    this.numCtx = window.numCtx;
    this.facts = { ...table, contextWindow: window.numCtx, windowSource: window.source };
    this.server = { kind: "ollama", name: found.version ? `Ollama ${found.version}` : "Ollama", url, api: "Ollama's own API (/api/chat)" };
  }

  async generate(request: GenerateRequest, options: GenerateOptions = {}): Promise<GenerateResult> {
    const started = this.#deps.clock.now();
    let streamed = false;
    const result = await withRetries(
      async () => {
        try {
          return await this.#attempt(request, options, () => (streamed = true));
        } catch (err) {
          throw await ollamaError(err, { server: this.server.url, model: this.model, numCtx: this.numCtx, signal: options.signal, listModels: () => this.listModels() });
        }
      },
      { clock: this.#deps.clock, sleep: this.#deps.sleep ?? abortableSleep, random: this.#deps.random ?? Math.random },
      {
        signal: options.signal,
        ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
        canRetry: () => !streamed,
        onRetry: ({ attempt, delayMs, error }) => this.#deps.logger.warn(`Ollama call failed (${error.code}), retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1}): ${error.message}`),
      },
    );
    return { ...result, durationMs: Math.max(0, this.#deps.clock.now() - started) };
  }

  async countTokens(request: GenerateRequest): Promise<TokenCount> {
    // Ollama has no count endpoint; its tokenizer runs only inside a call.
    return { tokens: estimateRequestTokens(request), estimated: true };
  }

  async close(): Promise<void> {}

  /** The models Ollama has pulled (`/api/tags`), or undefined when it will not say. */
  async listModels(): Promise<string[] | undefined> {
    try {
      const parsed = TagsSchema.safeParse(await this.#api(AbortSignal.timeout(5_000)).list());
      return parsed.success ? (parsed.data.models ?? []).map((m) => m.name) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The window the loaded model runs with now (`/api/ps`), for `model:check`; undefined when not loaded. */
  async loadedWindow(): Promise<number | undefined> {
    try {
      const parsed = PsSchema.safeParse(await this.#api(AbortSignal.timeout(5_000)).ps());
      const loaded = parsed.success ? (parsed.data.models ?? []).find((m) => m.name === this.model || m.model === this.model) : undefined;
      return loaded?.context_length ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** One HTTP call: exactly one model invocation. */
  async #attempt(request: GenerateRequest, options: GenerateOptions, markStreamed: () => void): Promise<Attempt> {
    const { signal } = options;
    if (signal?.aborted) throw abortError();
    const stream = options.stream ?? this.#options.stream;
    const tools = renderTools(request);
    const temperature = request.temperature ?? this.#options.temperature;
    const keepAlive = keepAliveValue(this.#options.keepAlive);
    // Our messages are checked JSON of Ollama's shapes; the client's own types are narrower than its API.
    const body = {
      model: this.model,
      messages: renderMessages(request),
      ...(tools ? { tools } : {}),
      options: {
        num_ctx: this.numCtx,
        ...(request.maxOutputTokens !== undefined ? { num_predict: request.maxOutputTokens } : {}),
        ...(temperature !== undefined ? { temperature } : {}),
      },
      ...(keepAlive !== undefined ? { keep_alive: keepAlive } : {}),
      // Ollama 0.12+ (api/types.go, ChatRequest.Truncate): refuse a prompt over num_ctx instead of dropping its start.
      truncate: false,
    } as unknown as ChatRequest;
    const api = this.#api(signal);
    const report = partialReporter(options.onPartial, this.#deps.logger);
    const draft = emptyOllamaDraft();
    if (!stream) {
      const whole = ChatPartSchema.safeParse(await api.chat({ ...body, stream: false }));
      if (!whole.success) throw new ModelError("invalid_response", `Ollama at ${this.server.url} sent a chat answer in a shape we cannot read.`);
      report(applyPart(draft, whole.data));
      return ollamaResult(draft, { request, model: this.model });
    }
    const parts = await api.chat({ ...body, stream: true });
    const stop = () => parts.abort();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      for await (const raw of parts) {
        const part = ChatPartSchema.safeParse(raw);
        if (!part.success) throw new ModelError("invalid_response", `Ollama at ${this.server.url} sent a chat line in a shape we cannot read.`);
        const partial = applyPart(draft, part.data);
        if (partial.text || partial.thinking || part.data.message?.tool_calls?.length) markStreamed();
        report(partial);
      }
    } finally {
      signal?.removeEventListener("abort", stop);
    }
    if (signal?.aborted) throw abortError();
    return ollamaResult(draft, { request, model: this.model });
  }

  /**
   * The `ollama` client for one call. It takes no signal of its own for
   * calls without streaming, so ours goes through its `fetch`; an error
   * answer that is not JSON (a proxy's page) is turned into Ollama's own
   * `{"error": …}` shape, so the server's words reach the message.
   */
  #api(signal: AbortSignal | undefined): Ollama {
    const base = this.#fetch;
    const wrapped: typeof fetch = async (input, init) => {
      const signals = [init?.signal, signal].filter((s): s is AbortSignal => s !== undefined && s !== null);
      const response = await base(input, { ...init, ...(signals.length ? { signal: AbortSignal.any(signals) } : {}) });
      if (response.ok || (response.headers.get("content-type") ?? "").includes("json")) return response;
      const said = readErrorBody(await response.text().catch(() => ""))?.message ?? `HTTP ${response.status}`;
      return new Response(JSON.stringify({ error: said }), { status: response.status, headers: { "content-type": "application/json" } });
    };
    return new Ollama({ host: this.#options.url, fetch: wrapped });
  }
}
