import type { JsonValue } from "../json.js";
import type { Flavour } from "./flavours.js";
import type { FakeAnswer } from "./types.js";

type Json = { [key: string]: JsonValue };

/** A call with its id and argument text settled, as the fake will send it. */
export interface SettledCall {
  id: string | undefined;
  name: string;
  arguments: string;
  /** Fields the server adds to a call (Google's `extra_content`). */
  extra?: Json;
}

/** Everything a reply needs besides the answer: who asked, and how. */
export interface RenderContext {
  flavour: Flavour;
  model: string;
  id: string;
  created: number;
  includeUsage: boolean;
  /** The prompt, for default usage figures. */
  promptChars: number;
}

export function settleCalls(answer: FakeAnswer, flavour: Flavour, random: () => number, parallel: boolean, extra?: (call: { name: string; arguments: string }) => Json): SettledCall[] {
  let calls = answer.toolCalls ?? [];
  // llama-server's grammar allows one call per turn unless the request asks for parallel calls.
  if (flavour.parallelNeedsFlag && !parallel) calls = calls.slice(0, 1);
  return calls.map((call) => {
    const settled: SettledCall = { id: call.id === null ? undefined : (call.id ?? flavour.callId(random)), name: call.name, arguments: call.argumentsText ?? JSON.stringify(call.args ?? {}) };
    if (extra) settled.extra = extra(settled);
    return settled;
  });
}

/** Tool calls written into the text, as a model's template writes them (Qwen's `<tool_call>` tags). */
export function toolCallsAsText(text: string | undefined, calls: SettledCall[]): string {
  const written = calls.map((c) => `<tool_call>\n{"name": ${JSON.stringify(c.name)}, "arguments": ${c.arguments}}\n</tool_call>`).join("\n");
  return text ? `${text}\n${written}` : written;
}

function finishReason(answer: FakeAnswer, calls: SettledCall[]): string {
  return answer.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop");
}

/** The usage object in the flavour's shape, or undefined when the answer reports none. */
function usage(answer: FakeAnswer, calls: SettledCall[], context: RenderContext): Json | undefined {
  if (answer.usage === false) return undefined;
  const reasoningShown = context.flavour.reasoningField ? (answer.reasoning ?? "") : "";
  const written = (answer.text ?? "") + (answer.refusal ?? "") + calls.map((c) => c.name + c.arguments).join("");
  const figures = answer.usage ?? {
    promptTokens: Math.ceil(context.promptChars / 4),
    completionTokens: Math.ceil((written.length + reasoningShown.length) / 4),
  };
  const base: Json = {
    prompt_tokens: figures.promptTokens,
    completion_tokens: figures.completionTokens,
    total_tokens: figures.promptTokens + figures.completionTokens,
  };
  if (context.flavour.style === "openai") {
    base.prompt_tokens_details = { cached_tokens: figures.cachedTokens ?? 0, audio_tokens: 0 };
    base.completion_tokens_details = {
      reasoning_tokens: figures.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    };
  } else if (context.flavour.style === "llama-server") {
    base.prompt_tokens_details = { cached_tokens: figures.cachedTokens ?? 0 };
  }
  return base;
}

/** Cuts text into token-sized pieces, as a model streams it. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function words(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/**
 * The chunks of a streamed answer, in the flavour's shape: what each real
 * server sends, in the order it sends it (see `fixtures/openai/README.md`).
 * `cut` stops after the content, for faults that end the stream early.
 */
export function streamChunks(answer: FakeAnswer, calls: SettledCall[], context: RenderContext, options: { cut?: boolean } = {}): Json[] {
  const { flavour } = context;
  const chunks: Json[] = [];
  const includeUsageNulls = flavour.name === "openai" && context.includeUsage;
  const chunk = (delta: Json | undefined, finish: string | null = null): Json => {
    const choice: Json = flavour.style === "llama-server" ? { finish_reason: finish, index: 0, delta: delta ?? {} } : { index: 0, delta: delta ?? {} };
    if (flavour.style === "openai") choice.logprobs = null;
    if (flavour.style !== "llama-server") choice.finish_reason = finish;
    const out: Json = { ...flavour.envelope(context.id, context.model, context.created, "chat.completion.chunk"), choices: [choice] };
    if (includeUsageNulls) out.usage = null;
    return out;
  };
  // Ollama repeats role and content in every delta; the others send the role once.
  const delta = (fields: Json): Json => (flavour.style === "ollama" ? { role: "assistant", content: "", ...fields } : fields);

  if (flavour.style === "llama-server") chunks.push(chunk({ role: "assistant", content: null }));
  let first = flavour.style === "openai";
  const openaiFirst = (fields: Json): Json => {
    if (!first) return fields;
    first = false;
    return { role: "assistant", content: null, ...fields, refusal: null };
  };

  if (flavour.reasoningField && answer.reasoning) {
    for (const piece of words(answer.reasoning)) chunks.push(chunk(delta({ [flavour.reasoningField]: piece })));
  }
  if (answer.refusal && flavour.name === "openai") {
    chunks.push(chunk({ role: "assistant", content: null, refusal: "" }));
    first = false;
    for (const piece of words(answer.refusal)) chunks.push(chunk({ refusal: piece }));
  }
  if (answer.text) {
    if (first) chunks.push(chunk(openaiFirst({ content: "" })));
    for (const piece of words(answer.text)) chunks.push(chunk(delta({ content: piece })));
  }
  if (options.cut) return chunks;

  calls.forEach((call, index) => {
    const head: Json = { index, ...(call.id !== undefined ? { id: call.id } : {}), type: "function" };
    if (flavour.wholeToolCalls) {
      // Ollama's field order: id, index, type, function.
      const whole: Json = { ...(call.id !== undefined ? { id: call.id } : {}), index, type: "function", function: { name: call.name, arguments: call.arguments }, ...call.extra };
      chunks.push(chunk(delta({ tool_calls: [whole] })));
      return;
    }
    const [start = "", ...rest] = flavour.style === "llama-server" ? pieces(call.arguments, 6) : ["", ...pieces(call.arguments, 6)];
    chunks.push(chunk(openaiFirst({ tool_calls: [{ ...head, function: { name: call.name, arguments: start }, ...call.extra }] })));
    for (const piece of rest) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  if (first) chunks.push(chunk(openaiFirst({ content: "" })));

  chunks.push(chunk(delta({}), finishReason(answer, calls)));
  const reported = context.includeUsage ? usage(answer, calls, context) : undefined;
  if (reported) {
    chunks.push({ ...flavour.envelope(context.id, context.model, context.created, "chat.completion.chunk"), choices: [], usage: reported });
  }
  if (flavour.style === "llama-server") {
    const last = chunks[chunks.length - 1] as Json;
    const promptN = Math.ceil(context.promptChars / 4);
    last.timings = {
      cache_n: 0,
      prompt_n: promptN,
      prompt_ms: promptN * 5,
      prompt_per_token_ms: 5,
      prompt_per_second: 200,
      predicted_n: chunks.length,
      predicted_ms: chunks.length * 25,
      predicted_per_token_ms: 25,
      predicted_per_second: 40,
    };
  }
  return chunks;
}

/** The whole `chat.completion` for a request without streaming. */
export function completion(answer: FakeAnswer, calls: SettledCall[], context: RenderContext): Json {
  const { flavour } = context;
  const content = answer.text ?? "";
  const message: Json = { role: "assistant", content: content === "" && (calls.length > 0 || answer.refusal) ? null : content };
  if (flavour.reasoningField && answer.reasoning) message[flavour.reasoningField] = answer.reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((call, index) => {
      const out: Json = { ...(call.id !== undefined ? { id: call.id } : {}), type: "function", function: { name: call.name, arguments: call.arguments }, ...call.extra };
      if (flavour.style === "ollama") out.index = index;
      return out;
    });
  }
  if (flavour.style === "openai") {
    message.refusal = answer.refusal ?? null;
    message.annotations = [];
  }
  const choice: Json = { index: 0, message, finish_reason: finishReason(answer, calls) };
  if (flavour.style === "openai") choice.logprobs = null;
  const body: Json = { ...flavour.envelope(context.id, context.model, context.created, "chat.completion"), choices: [choice] };
  const reported = usage(answer, calls, context);
  if (reported) body.usage = reported;
  return body;
}
