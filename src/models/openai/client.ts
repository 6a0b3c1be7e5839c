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
import { abortableSleep, abortError, withRetries, type RetryDeps } from "../retry.js";
import type { GenerateOptions, GenerateRequest, GenerateResult, ModelClient, ModelFacts, ModelProviderDeps, PartialOutput, TokenCount } from "../types.js";
import { applyChunk, applyDelta } from "./accumulate.js";
import { emptyDraft, type AssistantDraft } from "./draft.js";
import { apiRoot, displayUrl, maxTokensField } from "./endpoint.js";
import { errorFromStatus, parseErrorBody, serverMessage, unreachable, type ErrorContext } from "./http-errors.js";
import type { OpenAiOptions } from "./options.js";
import { chatBody } from "./request.js";
import { PROVIDER_NAME, toResult } from "./result.js";
import { retryAfterMs } from "./retry-after.js";
import { sseEvents } from "./sse.js";
import { WireChunkSchema, WireCompletionSchema, WireModelListSchema, type WireChunk } from "./wire.js";

type Attempt = Omit<GenerateResult, "durationMs">;

export class OpenAiClient implements ModelClient {
  readonly provider = PROVIDER_NAME;
  readonly model: string;
  readonly label: string;
  readonly facts: ModelFacts;
  readonly #options: OpenAiOptions;
  readonly #deps: ModelProviderDeps;
  readonly #root: string;
  readonly #fetch: typeof fetch;
  readonly #retryDeps: RetryDeps;
  readonly #context: ErrorContext;

  constructor(options: OpenAiOptions, deps: ModelProviderDeps) {
    this.#options = options;
    this.#deps = deps;
    this.#root = apiRoot(options.baseUrl);
    this.#fetch = deps.fetch ?? fetch;
    this.#retryDeps = { clock: deps.clock, sleep: deps.sleep ?? abortableSleep, random: deps.random ?? Math.random };
    this.model = options.model;
    const server = displayUrl(options.baseUrl);
    this.label = `${options.model} (OpenAI-compatible server at ${server})`;
    this.facts = modelFacts(options.model, { contextWindow: options.contextWindow, maxOutputTokens: options.maxOutputTokens });
    this.#context = { server, model: options.model, apiKey: options.apiKey };
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

  /** One HTTP call: exactly one model invocation. */
  async #attempt(request: GenerateRequest, options: GenerateOptions, markStreamed: () => void): Promise<Attempt> {
    const { signal } = options;
    if (signal?.aborted) throw abortError();
    const stream = this.#options.stream;
    const body = chatBody(request, { model: this.model, stream, maxTokensField: maxTokensField(this.#options.baseUrl) });
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
      throw await errorFromStatus(response.status, text, {
        ...this.#context,
        retryAfterMs: retryAfterMs(response.headers, this.#deps.clock.now()),
        listModels: () => this.listModels(signal),
      });
    }
    const type = response.headers.get("content-type") ?? "";
    const report = this.#reporter(options.onPartial);
    // A server may answer JSON even when asked to stream; read what it sent.
    if (type.includes("text/event-stream") && response.body) return this.#readStream(response.body, request, signal, report, markStreamed);
    if (type.includes("json")) return this.#readWhole(response, request, signal, report);
    await response.body?.cancel().catch(() => undefined);
    throw new ModelError(
      "invalid_response",
      `The server at ${this.#context.server} answered with ${type || "no content type"}, not an OpenAI-compatible API. Check openai_base_url (Ollama: http://HOST:11434/v1).`,
    );
  }

  async #readStream(
    body: ReadableStream<Uint8Array>,
    request: GenerateRequest,
    signal: AbortSignal | undefined,
    report: (partial: PartialOutput) => void,
    markStreamed: () => void,
  ): Promise<Attempt> {
    const draft = emptyDraft();
    let done = false;
    try {
      for await (const event of sseEvents(body)) {
        if (event.data.trim() === "[DONE]") {
          done = true;
          break;
        }
        const chunk = this.#parseChunk(event.data);
        if (event.event === "error" || chunk.error) throw this.#midStreamError(chunk);
        const partial = applyChunk(draft, chunk);
        if (partial.text || partial.thinking || chunk.choices?.some((c) => c.delta?.tool_calls?.length)) markStreamed();
        report(partial);
      }
    } catch (err) {
      if (signal?.aborted) throw abortError();
      if (err instanceof ModelError) throw err;
      throw new ModelError("unavailable", `The connection to the OpenAI-compatible server at ${this.#context.server} broke in the middle of the answer; try again.`);
    }
    // llama-server ends a failed stream without [DONE]; a finish reason means the answer itself was whole.
    if (!done && draft.finishReason === undefined) {
      throw new ModelError("unavailable", `The OpenAI-compatible server at ${this.#context.server} closed the stream before the answer was complete; try again.`);
    }
    return toResult(draft, { request, model: this.model });
  }

  async #readWhole(response: Response, request: GenerateRequest, signal: AbortSignal | undefined, report: (partial: PartialOutput) => void): Promise<Attempt> {
    let json: unknown;
    try {
      json = JSON.parse(await response.text());
    } catch {
      if (signal?.aborted) throw abortError();
      throw new ModelError("invalid_response", `The OpenAI-compatible server at ${this.#context.server} sent an answer that is not JSON; try again.`);
    }
    const parsed = WireCompletionSchema.safeParse(json);
    if (!parsed.success) {
      const error = parseErrorBody(JSON.stringify(json));
      if (error) throw this.#midStreamError({ error });
      throw new ModelError("invalid_response", `The OpenAI-compatible server at ${this.#context.server} sent a chat completion in a shape we cannot read.`);
    }
    const choice = parsed.data.choices.find((c) => (c.index ?? 0) === 0) ?? parsed.data.choices[0];
    const draft: AssistantDraft = emptyDraft();
    if (choice) {
      const { tool_calls: calls, ...message } = choice.message;
      report(applyDelta(draft, message));
      // A whole message lists each call once; indexes there are not keys to merge on.
      draft.calls = (calls ?? []).map((call) => ({
        index: call.index ?? undefined,
        id: call.id || undefined,
        name: call.function?.name ?? "",
        arguments: call.function?.arguments ?? "",
      }));
      draft.finishReason = choice.finish_reason ?? undefined;
    }
    draft.usage = parsed.data.usage ?? undefined;
    return toResult(draft, { request, model: this.model });
  }

  #parseChunk(data: string): WireChunk {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw new ModelError("invalid_response", `The OpenAI-compatible server at ${this.#context.server} sent a stream event that is not JSON; try again.`);
    }
    const parsed = WireChunkSchema.safeParse(json);
    if (!parsed.success) throw new ModelError("invalid_response", `The OpenAI-compatible server at ${this.#context.server} sent a stream chunk in a shape we cannot read.`);
    return parsed.data;
  }

  /** An error the server reports inside a 200 answer: the model or the server failed while answering. */
  #midStreamError(chunk: Pick<WireChunk, "error">): ModelError {
    const said = serverMessage(chunk.error ?? undefined, this.#options.apiKey);
    return new ModelError("unavailable", `The OpenAI-compatible server at ${this.#context.server} failed while answering${said ? `: ${said}` : ""}. Try again.`);
  }

  #headers(accept: string): Record<string, string> {
    const headers: Record<string, string> = { accept };
    if (this.#options.apiKey) headers.authorization = `Bearer ${this.#options.apiKey}`;
    return headers;
  }

  /** Calls `onPartial` with what is new; a throwing callback is logged once and then left alone. */
  #reporter(onPartial: GenerateOptions["onPartial"]): (partial: PartialOutput) => void {
    let failed = false;
    return (partial) => {
      if (!onPartial || failed || (!partial.text && !partial.thinking)) return;
      try {
        onPartial(partial);
      } catch (err) {
        failed = true;
        this.#deps.logger.warn(`The onPartial callback failed and gets no more deltas for this call: ${describeError(err)}`);
      }
    };
  }

  /** The contract: generate rejects only with a ModelError. Anything else is our bug, logged, and reported without its stack. */
  #asModelError(err: unknown, signal: AbortSignal | undefined): ModelError {
    if (err instanceof ModelError) return err;
    if (signal?.aborted) return abortError();
    this.#deps.logger.error(`Reading the OpenAI-compatible answer failed unexpectedly: ${describeError(err)}`);
    return new ModelError("invalid_response", "Reading the model server's answer failed unexpectedly; the add-on log has the details.");
  }
}
