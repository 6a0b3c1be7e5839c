import { z } from "zod";

/**
 * The shapes a model call produces that the agent journals. They are stored
 * in step logs (`model_response` records) and read back on resume, so they
 * are zod schemas, and nothing in them may hold a secret.
 */

/** Any JSON value: what a provider's raw turn and tool arguments are made of. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);

/** One tool call the model asked for. `id` is the provider's, or one we made when it gave none. */
export const ToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  args: z.record(z.string(), JsonValueSchema),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * The one reserved key in `ToolCall.args`. A provider sets it, alone, when
 * the model's arguments were not a JSON object (local models do write
 * broken JSON): its value is `{text, problem}`, the text as written and what
 * is wrong with it. The agent answers such a call with an error result the
 * model can learn from, instead of running the tool.
 */
export const INVALID_TOOL_ARGS_KEY = "_invalid_arguments";

export const FINISH_REASONS = ["stop", "tool_calls", "length", "safety", "other"] as const;
export const FinishReasonSchema = z.enum(FINISH_REASONS);
export type FinishReason = z.infer<typeof FinishReasonSchema>;

/** Token usage of one model call. `estimated` is true when any figure was not reported by the provider. */
export const ModelUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  thinkingTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  estimated: z.boolean(),
});
export type ModelUsage = z.infer<typeof ModelUsageSchema>;

/**
 * A model turn exactly as the provider returned it, plus a neutral reading
 * of it. `raw` is sent back verbatim to the same provider (Gemini's
 * `thoughtSignature`s live in it); another provider renders the turn from
 * `text` and `toolCalls` instead.
 */
export const ModelTurnSchema = z.object({
  /** The provider that produced `raw`: `gemini`, `openai` or `demo`. */
  provider: z.string().min(1),
  model: z.string().min(1),
  /** Gemini: the `Content` `{role:"model", parts:[…]}`. OpenAI: the assistant message. */
  raw: JsonValueSchema,
  text: z.string(),
  toolCalls: z.array(ToolCallSchema),
});
export type ModelTurn = z.infer<typeof ModelTurnSchema>;

/** The result of one tool call, as the model will see it. */
export const ToolResultSchema = z.object({
  callId: z.string().min(1),
  name: z.string().min(1),
  /** What the tool returned, or `{error: {code, message}}` when it failed. */
  output: JsonValueSchema,
  isError: z.boolean(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** The conversation a model call sees, oldest first. */
export const ConversationItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user"), text: z.string() }),
  z.object({ type: z.literal("model"), turn: ModelTurnSchema }),
  /** Answers every tool call of the model turn just before it, in any order. */
  z.object({ type: z.literal("tool_results"), results: z.array(ToolResultSchema).min(1) }),
]);
export type ConversationItem = z.infer<typeof ConversationItemSchema>;
