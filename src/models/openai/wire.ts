import { z } from "zod";

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

const FunctionPartSchema = z.object({ name: z.string().nullish(), arguments: z.string().nullish() });

export const WireToolCallDeltaSchema = z.object({
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

/** `{error: {message, type, code}}` as OpenAI, Ollama and llama-server send it; Ollama's native API sends `{error: "text"}`. */
export const WireErrorSchema = z.union([
  z.object({
    message: z.string().nullish(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
  z.string().transform((message) => ({ message, type: undefined, code: undefined })),
]);
export type WireError = z.infer<typeof WireErrorSchema>;

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

export const WireErrorBodySchema = z.object({ error: WireErrorSchema });

/**
 * `GET /v1/models`. llama-server adds `meta.n_ctx`, the context size of a
 * slot, which is the window a request really gets.
 */
export const WireModelListSchema = z.object({
  data: z.array(z.object({ id: z.string(), meta: z.object({ n_ctx: z.number().int().positive().nullish() }).nullish() })),
});
