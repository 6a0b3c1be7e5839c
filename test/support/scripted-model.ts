import type { GenerateOptions, GenerateRequest, GenerateResult, ModelClient, ToolCall } from "../../src/models/index.js";
import { ModelError, estimateRequestTokens, modelFacts } from "../../src/models/index.js";

/** One scripted answer: text, tool calls, or a function of the request for anything else. */
export type ScriptedReply =
  | { text: string; toolCalls?: Omit<ToolCall, "id">[]; usage?: Partial<GenerateResult["usage"]>; finishReason?: GenerateResult["finishReason"]; delayMs?: number }
  | ((request: GenerateRequest, options: GenerateOptions) => Promise<GenerateResult> | GenerateResult);

/**
 * A model client that answers from a script, one reply per call, and keeps
 * every request it received, so a test can assert what the loop asked.
 */
export function scriptedModel(replies: ScriptedReply[], options: { provider?: string; model?: string } = {}): ModelClient & { requests: GenerateRequest[] } {
  const provider = options.provider ?? "scripted";
  const model = options.model ?? "scripted-1";
  const requests: GenerateRequest[] = [];
  let calls = 0;
  return {
    provider,
    model,
    label: "Scripted test model",
    facts: modelFacts(model),
    requests,
    async generate(request, opts = {}) {
      requests.push(structuredClone(request));
      const reply = replies[calls];
      const n = ++calls;
      if (!reply) throw new ModelError("invalid_response", `The script has no reply for call ${n}.`);
      if (typeof reply === "function") return reply(request, opts);
      if (reply.delayMs) await abortableDelay(reply.delayMs, opts.signal);
      if (opts.signal?.aborted) throw new ModelError("aborted", "The model call was cancelled.");
      const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({ ...c, id: `call-${n}-${i}` }));
      opts.onPartial?.({ text: reply.text });
      return {
        turn: { provider, model, raw: { n, text: reply.text, toolCalls }, text: reply.text, toolCalls },
        text: reply.text,
        toolCalls,
        finishReason: reply.finishReason ?? (toolCalls.length ? "tool_calls" : "stop"),
        usage: { inputTokens: estimateRequestTokens(request), outputTokens: 10, thinkingTokens: 0, cachedTokens: 0, estimated: true, ...reply.usage },
        durationMs: reply.delayMs ?? 1,
      };
    },
    async countTokens(request) {
      return { tokens: estimateRequestTokens(request), estimated: true };
    },
    async close() {},
  };
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new ModelError("aborted", "The model call was cancelled."));
    }, { once: true });
  });
}
