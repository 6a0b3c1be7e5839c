import { GoogleGenAI, type Content, type GenerateContentResponse, type Part } from "@google/genai";
import { describeError, linkedSignal } from "../../shared/index.js";
import { estimateRequestTokens } from "../estimate.js";
import { modelFacts } from "../facts.js";
import { abortableSleep, withRetries } from "../retry.js";
import type { FinishReason, JsonValue, ModelUsage, ToolCall } from "../schemas.js";
import type { GenerateOptions, GenerateRequest, GenerateResult, ModelClient, ModelFacts, ModelProviderDeps, TokenCount } from "../types.js";
import { geminiError } from "./errors.js";
import type { GeminiOptions } from "./options.js";
import { GENERATED_ID, systemOf, toContents, toDeclarations } from "./wire.js";

/**
 * Finish reasons that are a refusal for safety. `LANGUAGE` is not one: "the
 * token generation stopped because of using an unsupported language"
 * (js-genai src/types.ts, FinishReason).
 */
const SAFETY = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);

/**
 * Gemini through `@google/genai`. One `generate` is one streamed HTTP call
 * per attempt: the SDK's own retries and automatic continuation stay off,
 * and `withRetries` decides what is tried again.
 */
export class GeminiClient implements ModelClient {
  readonly provider: string;
  readonly model: string;
  readonly label: string;
  readonly facts: ModelFacts;
  readonly #ai: GoogleGenAI;

  constructor(
    private readonly options: GeminiOptions,
    private readonly deps: ModelProviderDeps,
  ) {
    this.provider = options.providerName;
    this.model = options.model;
    this.label = options.label ?? `Gemini ${options.model}`;
    this.facts = modelFacts(options.model, { ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}), ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}) });
    this.#ai = new GoogleGenAI({ apiKey: options.apiKey, ...(options.baseUrl ? { httpOptions: { baseUrl: options.baseUrl } } : {}) });
  }

  async generate(request: GenerateRequest, options: GenerateOptions = {}): Promise<GenerateResult> {
    const started = this.deps.clock.now();
    let streamed = false;
    const result = await withRetries(
      async () => {
        try {
          return await this.#once(request, options, () => (streamed = true));
        } catch (err) {
          throw geminiError(err, { model: this.model, signal: options.signal });
        }
      },
      { clock: this.deps.clock, sleep: this.deps.sleep ?? abortableSleep, random: this.deps.random ?? Math.random },
      {
        signal: options.signal,
        ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
        canRetry: () => !streamed,
        onRetry: ({ attempt, delayMs, error }) => this.deps.logger.info({ attempt, delayMs, code: error.code }, `Gemini call failed (${error.code}); trying again in ${delayMs} ms`),
      },
    );
    return { ...result, durationMs: Math.max(0, this.deps.clock.now() - started) };
  }

  async #once(request: GenerateRequest, options: GenerateOptions, onOutput: () => void): Promise<Omit<GenerateResult, "durationMs">> {
    const call = linkedSignal([options.signal]);
    try {
      return await this.#stream(request, call.signal, options.onPartial, onOutput);
    } finally {
      call.release();
    }
  }

  async #stream(request: GenerateRequest, signal: AbortSignal | undefined, onPartial: GenerateOptions["onPartial"], onOutput: () => void): Promise<Omit<GenerateResult, "durationMs">> {
    const declarations = toDeclarations(request.tools);
    const stream = await this.#ai.models.generateContentStream({
      model: this.model,
      contents: toContents(request.conversation, this.provider),
      config: {
        ...systemOf(request),
        ...(declarations.length ? { tools: [{ functionDeclarations: declarations }] } : {}),
        ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        // One HTTP call is one journaled step: the SDK must not send follow-ups of its own.
        automaticContinuation: false,
        automaticFunctionCalling: { disable: true },
        ...(signal ? { abortSignal: signal } : {}),
      },
    });
    const parts: Part[] = [];
    let last: GenerateContentResponse | undefined;
    let finish: string | undefined;
    let blocked: string | undefined;
    for await (const chunk of stream) {
      last = chunk;
      if (chunk.promptFeedback?.blockReason) blocked = `Gemini blocked the request (${chunk.promptFeedback.blockReason}).`;
      const candidate = chunk.candidates?.[0];
      if (candidate?.finishReason) finish = candidate.finishReason;
      for (const part of candidate?.content?.parts ?? []) {
        // Kept exactly as received, a signature-only part ({text: "", thoughtSignature}) included.
        parts.push(part);
        if (typeof part.text === "string" && part.text) {
          onOutput();
          onPartial?.(part.thought ? { thinking: part.text } : { text: part.text });
        }
      }
    }
    const raw: Content = { role: "model", parts };
    const toolCalls: ToolCall[] = parts
      .filter((p) => p.functionCall)
      .map((p, i) => ({ id: p.functionCall!.id ?? `${GENERATED_ID}${i}`, name: p.functionCall!.name ?? "", args: (p.functionCall!.args ?? {}) as Record<string, JsonValue> }));
    const text = parts.filter((p) => typeof p.text === "string" && !p.thought).map((p) => p.text).join("");
    const safety = blocked !== undefined || (finish !== undefined && SAFETY.has(finish));
    const finishReason: FinishReason = safety ? "safety" : toolCalls.length ? "tool_calls" : finish === "MAX_TOKENS" ? "length" : finish === undefined || finish === "STOP" ? "stop" : "other";
    return {
      turn: { provider: this.provider, model: this.model, raw: JSON.parse(JSON.stringify(raw)) as JsonValue, text, toolCalls },
      text,
      toolCalls,
      finishReason,
      ...(finish !== undefined ? { finishDetail: finish } : {}),
      ...(safety ? { refusal: blocked ?? `Gemini stopped its answer for safety (${finish}). Rephrase the request.` } : {}),
      usage: usageOf(last, request),
    };
  }

  async countTokens(request: GenerateRequest, options: { signal?: AbortSignal } = {}): Promise<TokenCount> {
    const call = linkedSignal([options.signal]);
    try {
      const counted = await this.#ai.models.countTokens({
        model: this.model,
        contents: toContents(request.conversation, this.provider),
        ...(call.signal ? { config: { abortSignal: call.signal } } : {}),
      });
      if (typeof counted.totalTokens === "number") return { tokens: counted.totalTokens + Math.ceil((request.system.length + JSON.stringify(request.tools ?? []).length) / 4), estimated: false };
    } catch (err) {
      this.deps.logger.debug({ err: describeError(err) }, "Gemini could not count tokens; estimating");
    } finally {
      call.release();
    }
    return { tokens: estimateRequestTokens(request), estimated: true };
  }

  async close(): Promise<void> {}
}

/** Streamed usage is cumulative: the last chunk's is the call's. */
function usageOf(last: GenerateContentResponse | undefined, request: GenerateRequest): ModelUsage {
  const u = last?.usageMetadata;
  if (!u || u.promptTokenCount === undefined) {
    return { inputTokens: estimateRequestTokens(request), outputTokens: 0, thinkingTokens: 0, cachedTokens: 0, estimated: true };
  }
  return {
    inputTokens: u.promptTokenCount ?? 0,
    outputTokens: u.candidatesTokenCount ?? 0,
    thinkingTokens: u.thoughtsTokenCount ?? 0,
    cachedTokens: u.cachedContentTokenCount ?? 0,
    estimated: false,
  };
}
