/**
 * The client for OpenAI-compatible chat completion servers (Ollama,
 * llama.cpp's llama-server, LM Studio, vLLM, OpenRouter, OpenAI).
 *
 * Decision: our own small fetch client, not the `openai` package
 * (6.49.0 is the newest on Node 20). Reasons:
 * - Retries. The package retries twice by default and has a 10-minute
 *   timeout of its own. Each HTTP call must be exactly one invocation the
 *   agent can journal, and retries must follow our policy (`withRetries`:
 *   the server's Retry-After, jittered backoff, the caller's deadline).
 *   Turning the package's off is possible, but easy to lose in a refactor.
 * - The servers' differences. Ollama's `reasoning`, llama-server's
 *   `reasoning_content`, whole-call deltas, missing call ids, broken
 *   argument JSON and 404 bodies are not part of OpenAI's API; the package
 *   types them away and we would read them around it anyway.
 * - Size. Streaming chat completions is one POST and an SSE reader
 *   (`sse.ts`, ~70 lines); the package is a large dependency for it.
 * What we give up: the package's typed coverage of the rest of OpenAI's API,
 * which we do not use. docs/models.md ("OpenAI-compatible servers") has the
 * whole behaviour: the /v1 rule, usage, finish reasons, raw turns, errors.
 */
import { describeError } from "../../shared/index.js";
import { ModelError } from "../errors.js";
import { estimateRequestTokens } from "../estimate.js";
import { modelFacts } from "../facts.js";
import { partialReporter } from "../partial-reporter.js";
import { abortableSleep, abortError, withRetries, type RetryDeps } from "../retry.js";
import { displayUrl, readErrorBody } from "../server-words.js";
import type { GenerateOptions, GenerateRequest, GenerateResult, ModelClient, ModelFacts, ModelProviderDeps, ServerFacts, TokenCount } from "../types.js";
import { adaptationFor, NO_QUIRKS, type Adaptation, type RequestQuirks } from "./adapt.js";
import { apiRoot, maxTokensField } from "./endpoint.js";
import { errorFromStatus, unreachable, type ErrorContext } from "./http-errors.js";
import type { OpenAiOptions } from "./options.js";
import type { ProbedServer } from "./probe.js";
import { readStream, readWhole, type Attempt } from "./read-answer.js";
import { chatBody } from "./request.js";
import { PROVIDER_NAME } from "./result.js";
import { retryAfterMs } from "./retry-after.js";
import { WireModelListSchema } from "./wire.js";

/** Ollama's /v1 runs at temperature 1.0 when a request sets none (openai/openai.go, FromChatRequest); 0.8 is its own default (api/types.go, DefaultOptions). */
const OLLAMA_V1_TEMPERATURE = 0.8;

export class OpenAiClient implements ModelClient {
  readonly provider = PROVIDER_NAME;
  readonly model: string;
  readonly label: string;
  readonly facts: ModelFacts;
  readonly server: ServerFacts | undefined;
  readonly #options: OpenAiOptions;
  readonly #deps: ModelProviderDeps;
  readonly #root: string;
  readonly #fetch: typeof fetch;
  readonly #retryDeps: RetryDeps;
  readonly #context: ErrorContext;
  readonly #temperature: number | undefined;
  /** What this server refused once and is not sent again. */
  #quirks: RequestQuirks = { ...NO_QUIRKS };

  constructor(options: OpenAiOptions, deps: ModelProviderDeps, probed?: ProbedServer) {
    this.#options = options;
    this.#deps = deps;
    this.#root = apiRoot(options.baseUrl);
    this.#fetch = deps.fetch ?? fetch;
    this.#retryDeps = { clock: deps.clock, sleep: deps.sleep ?? abortableSleep, random: deps.random ?? Math.random };
    this.model = options.model;
    const server = displayUrl(options.baseUrl);
    this.label = `${options.model} (${probed && probed.kind !== "unknown" ? probed.name : "OpenAI-compatible server"} at ${server})`;
    this.facts = factsOf(options, probed);
    if (probed?.reached) this.server = { kind: probed.kind, name: probed.name, url: server, api: "its OpenAI-compatible API (/chat/completions)" };
    this.#context = { server, model: options.model, apiKey: options.apiKey };
    // Only when Ollama's own API cannot be reached is its /v1 used; without a temperature it would run at 1.0.
    this.#temperature = options.temperature ?? (probed?.kind === "ollama" ? OLLAMA_V1_TEMPERATURE : undefined);
  }

  async generate(request: GenerateRequest, options: GenerateOptions = {}): Promise<GenerateResult> {
    const started = this.#deps.clock.now();
    let streamed = false;
    try {
      const result = await withRetries(
        () => this.#attempt(request, options, () => (streamed = true)),
        this.#retryDeps,
        {
          signal: options.signal,
          deadline: options.deadline,
          canRetry: () => !streamed,
          onRetry: ({ attempt, delayMs, error }) =>
            this.#deps.logger.warn(`Model call failed (${error.code}), retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1}): ${error.message}`),
        },
      );
      return { ...result, durationMs: this.#deps.clock.now() - started };
    } catch (err) {
      throw this.#asModelError(err, options.signal);
    }
  }

  async countTokens(request: GenerateRequest): Promise<TokenCount> {
    // There is no standard count endpoint on OpenAI-compatible servers.
    return { tokens: estimateRequestTokens(request), estimated: true };
  }

  async close(): Promise<void> {
    // Nothing to release: fetch's connection pool closes idle sockets by itself.
  }

  /** The ids of the models the server offers, or undefined when it will not say. */
  async listModels(signal?: AbortSignal): Promise<string[] | undefined> {
    const signals = [AbortSignal.timeout(10_000), ...(signal ? [signal] : [])];
    try {
      const response = await this.#fetch(`${this.#root}/models`, { headers: this.#headers("application/json"), signal: AbortSignal.any(signals) });
      if (!response.ok) {
        await response.body?.cancel();
        return undefined;
      }
      const parsed = WireModelListSchema.safeParse(await response.json());
      return parsed.success ? parsed.data.data.map((m) => m.id) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * One model invocation. A refusal that names a field of ours (an o-series
   * model's `parallel_tool_calls`, a window too small for `max_tokens`) is
   * sent again at once without it: that is the same invocation, adapted, not
   * a retry of a failure.
   */
  async #attempt(request: GenerateRequest, options: GenerateOptions, markStreamed: () => void): Promise<Attempt> {
    let fitted: number | undefined;
    for (let adapted = 0; ; adapted++) {
      const outcome = await this.#send(request, options, markStreamed, fitted);
      if (!("refused" in outcome)) return outcome;
      const change = adapted < 3 ? adaptationFor(outcome.status, outcome.error, { maxTokens: fitted ?? request.maxOutputTokens }) : undefined;
      if (!change || !this.#apply(change)) throw await this.#refusal(outcome, options.signal);
      if (change.kind === "fit_output") fitted = change.maxTokens;
    }
  }

  /** Records an adaptation; false when it was already in force (the server refused anyway). */
  #apply(change: Adaptation): boolean {
    const q = this.#quirks;
    switch (change.kind) {
      case "drop_parallel_tool_calls":
        if (q.noParallelToolCalls) return false;
        this.#quirks = { ...q, noParallelToolCalls: true };
        this.#deps.logger.info(`${this.#context.server} refuses parallel_tool_calls for ${this.model}; it is no longer sent`);
        return true;
      case "max_completion_tokens":
        if (q.maxCompletionTokens) return false;
        this.#quirks = { ...q, maxCompletionTokens: true };
        return true;
      case "drop_temperature":
        if (q.noTemperature) return false;
        this.#quirks = { ...q, noTemperature: true };
        return true;
      case "fit_output":
        return true;
    }
  }

  async #send(
    request: GenerateRequest,
    options: GenerateOptions,
    markStreamed: () => void,
    maxTokens: number | undefined,
  ): Promise<Attempt | { refused: true; status: number; text: string; error: ReturnType<typeof readErrorBody>; headers: Headers }> {
    const { signal } = options;
    if (signal?.aborted) throw abortError();
    const stream = options.stream ?? this.#options.stream;
    const q = this.#quirks;
    const body = chatBody(request, {
      model: this.model,
      stream,
      maxTokensField: q.maxCompletionTokens ? "max_completion_tokens" : maxTokensField(this.#options.baseUrl),
      parallelToolCalls: !q.noParallelToolCalls,
      temperature: q.noTemperature ? undefined : this.#temperature,
      maxTokens,
    });
    if (q.noTemperature) delete body.temperature;
    let response: Response;
    try {
      response = await this.#fetch(`${this.#root}/chat/completions`, {
        method: "POST",
        headers: { ...this.#headers(stream ? "text/event-stream" : "application/json"), "content-type": "application/json" },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw abortError();
      throw unreachable(err, this.#context);
    }
    if (!response.ok) {
      const text = await response.text().catch(() => {
        if (signal?.aborted) throw abortError();
        return "";
      });
      return { refused: true, status: response.status, text, error: readErrorBody(text), headers: response.headers };
    }
    const type = response.headers.get("content-type") ?? "";
    const context = { request, model: this.model, server: this.#context.server, apiKey: this.#options.apiKey, signal, report: partialReporter(options.onPartial, this.#deps.logger), markStreamed };
    // A server may answer JSON even when asked to stream; read what it sent.
    if (type.includes("text/event-stream") && response.body) return readStream(response.body, context);
    if (type.includes("json")) return readWhole(response, context);
    await response.body?.cancel().catch(() => undefined);
    throw new ModelError(
      "invalid_response",
      `The server at ${this.#context.server} answered with ${type || "no content type"}, not an OpenAI-compatible API. Check openai_base_url (Ollama: http://HOST:11434/v1).`,
    );
  }

  #refusal(outcome: { status: number; text: string; headers: Headers }, signal: AbortSignal | undefined): Promise<ModelError> {
    return errorFromStatus(outcome.status, outcome.text, {
      ...this.#context,
      retryAfterMs: retryAfterMs(outcome.headers, this.#deps.clock.now()),
      listModels: () => this.listModels(signal),
    });
  }

  #headers(accept: string): Record<string, string> {
    const headers: Record<string, string> = { accept };
    if (this.#options.apiKey) headers.authorization = `Bearer ${this.#options.apiKey}`;
    return headers;
  }

  /** The contract: generate rejects only with a ModelError. Anything else is our bug, logged, and reported without its stack. */
  #asModelError(err: unknown, signal: AbortSignal | undefined): ModelError {
    if (err instanceof ModelError) return err;
    if (signal?.aborted) return abortError();
    this.#deps.logger.error(`Reading the OpenAI-compatible answer failed unexpectedly: ${describeError(err)}`);
    return new ModelError("invalid_response", "Reading the model server's answer failed unexpectedly; the add-on log has the details.");
  }
}

/**
 * The model's limits: the window the server reports (llama-server's
 * `/props`, vLLM's `max_model_len`), which `model_context_tokens` can only
 * lower; else that option; else the model table.
 */
function factsOf(options: OpenAiOptions, probed: ProbedServer | undefined): ModelFacts {
  const reported = probed?.window;
  const option = options.contextWindow;
  const facts = modelFacts(options.model, { maxOutputTokens: options.maxOutputTokens });
  if (reported && (option === undefined || reported.tokens <= option)) return { ...facts, contextWindow: reported.tokens, windowSource: reported.source };
  if (option !== undefined) return { ...facts, contextWindow: option, windowSource: reported ? `model_context_tokens (below ${reported.source}: ${reported.tokens})` : "model_context_tokens" };
  return { ...facts, windowSource: facts.known ? "HA Agent's model table" : "a conservative guess: the model is not in HA Agent's table" };
}
