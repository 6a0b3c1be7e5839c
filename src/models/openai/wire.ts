import { z } from "zod";
import { JsonValueSchema } from "../schemas.js";

/**
 * What OpenAI-compatible servers answer, read leniently: servers differ in
 * which fields they send and whether absent means `null` or missing, so
 * every field we do not strictly need is optional and nullable, and unknown
 * fields are dropped.
 */

const count = z.number().nonnegative();

export const WireUsageSchema = z.object({
  prompt_tokens: count.nullish(),
  completion_tokens: count.nullish(),
  total_tokens: count.nullish(),
  prompt_tokens_details: z.object({ cached_tokens: count.nullish() }).nullish(),
  completion_tokens_details: z.object({ reasoning_tokens: count.nullish() }).nullish(),
});
export type WireUsage = z.infer<typeof WireUsageSchema>;

/** Some servers send `arguments` as a JSON object rather than as text; both are read. */
const FunctionPartSchema = z.object({ name: z.string().nullish(), arguments: z.union([z.string(), z.record(z.string(), JsonValueSchema)]).nullish() });

/**
 * A tool call, or a streamed piece of one. Fields we do not know are kept
 * (a loose object): Gemini's `extra_content.google.thought_signature` lives
 * there and must go back with the call, exactly as received.
 */
export const WireToolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative().nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: FunctionPartSchema.nullish(),
});
export type WireToolCallDelta = z.infer<typeof WireToolCallDeltaSchema>;

/** The fields a streamed `delta` and a whole `message` share. */
const MessageFields = {
  role: z.string().nullish(),
  content: z.string().nullish(),
  /** Ollama's name for the thinking text. */
  reasoning: z.string().nullish(),
  /** llama-server's, vLLM's and DeepSeek's name for it. */
  reasoning_content: z.string().nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(WireToolCallDeltaSchema).nullish(),
  /** The deprecated single-function form, still sent by a few old servers. */
  function_call: FunctionPartSchema.nullish(),
};

export const WireDeltaSchema = z.object(MessageFields);
export type WireDelta = z.infer<typeof WireDeltaSchema>;

/** An error inside a stream: any JSON; `readErrorBody` finds the words in whatever shape it has. */
export const WireErrorSchema = JsonValueSchema;

export const WireChunkSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(z.object({ index: z.number().int().nullish(), delta: WireDeltaSchema.nullish(), finish_reason: z.string().nullish() }))
    .nullish(),
  usage: WireUsageSchema.nullish(),
  error: WireErrorSchema.nullish(),
});
export type WireChunk = z.infer<typeof WireChunkSchema>;

export const WireCompletionSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(z.object({ index: z.number().int().nullish(), message: z.object(MessageFields), finish_reason: z.string().nullish() }))
    .min(1),
  usage: WireUsageSchema.nullish(),
});
export type WireCompletion = z.infer<typeof WireCompletionSchema>;

/**
 * `GET /v1/models`. Ollama answers `"data": null` when nothing is pulled
 * (openai/openai.go, `ToListCompletion` over an empty list). vLLM adds
 * `max_model_len` (vllm/entrypoints/openai/models/protocol.py). llama-server
 * adds `meta.n_ctx_train`, the training length, which is not the window a
 * request gets: that is in its `/props`.
 */
export const WireModelListSchema = z.object({
  data: z
    .array(
      z.object({
        id: z.string(),
        owned_by: z.string().nullish(),
        max_model_len: z.number().int().positive().nullish(),
        meta: z.object({ n_ctx: z.number().int().positive().nullish(), n_ctx_train: z.number().int().positive().nullish() }).nullish(),
      }),
    )
    .nullable()
    .transform((data) => data ?? []),
});
export type WireModelList = z.infer<typeof WireModelListSchema>;
