import { z } from "zod";
import { ModelTurnSchema, ModelUsageSchema, FinishReasonSchema, ToolCallSchema, ToolResultSchema } from "../models/index.js";

/**
 * What the loop writes to a continuation's step log, one schema per step
 * type. Replay reads them back, so they are the only source of a turn's
 * progress: a resume trusts nothing else.
 */

/** `model_response`: one completed model call, journaled before anything acts on it. */
export const ModelResponseDetailSchema = z.object({
  step: z.number().int().positive(),
  turn: ModelTurnSchema,
  usage: ModelUsageSchema,
  finishReason: FinishReasonSchema,
  refusal: z.string().optional(),
  durationMs: z.number().nonnegative(),
  /** True for the last call made without tools after a budget ran out. */
  wrapUp: z.boolean().default(false),
});

/** `tool_call`: the intent, fsynced before an action reaches Home Assistant. */
export const ToolCallDetailSchema = z.object({
  step: z.number().int().positive(),
  index: z.number().int().nonnegative(),
  call: ToolCallSchema,
  action: z.boolean(),
});

/** `tool_result`: what the call returned, as the model saw it. */
export const ToolResultDetailSchema = z.object({
  step: z.number().int().positive(),
  index: z.number().int().nonnegative(),
  result: ToolResultSchema,
  durationMs: z.number().nonnegative(),
});

export type ModelResponseDetail = z.infer<typeof ModelResponseDetailSchema>;
export type ToolCallDetail = z.infer<typeof ToolCallDetailSchema>;
export type ToolResultDetail = z.infer<typeof ToolResultDetailSchema>;

/** The key tying an intent to its result: `continuationId:step:callIndex`. */
export const callKey = (continuationId: string, step: number, index: number): string => `${continuationId}:${step}:${index}`;
