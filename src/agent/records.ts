import { z } from "zod";
import { ModelTurnSchema, ModelUsageSchema, FinishReasonSchema, ToolCallSchema, ToolResultSchema } from "../models/index.js";
import { PendingApprovalSchema } from "../store/index.js";

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
  /** Written by older versions on the wrap-up call; a `wrap_up` step says it now. */
  wrapUp: z.boolean().default(false),
});

/** `tool_call`: the intent, fsynced before an action reaches Home Assistant. */
export const ToolCallDetailSchema = z.object({
  step: z.number().int().positive(),
  index: z.number().int().nonnegative(),
  call: ToolCallSchema,
  /** Whether the call changes the home, as decided when it was made; a resume goes by this, not by today's tools. */
  action: z.boolean(),
});

/** `tool_result`: what the call returned, as the model saw it. */
export const ToolResultDetailSchema = z.object({
  step: z.number().int().positive(),
  index: z.number().int().nonnegative(),
  result: ToolResultSchema,
  durationMs: z.number().nonnegative(),
});

/** `retrieval`: the index matches that primed the first call, so a resume sends the same prompt. */
export const RetrievalDetailSchema = z.object({ text: z.string() });

/**
 * `summary`: the rolling summary a memory fold produced, reused by a resume.
 * The fold is one model call of the turn: its usage, when the model answered
 * (older logs and a failed call have none).
 */
export const SummaryDetailSchema = z.object({ summary: z.string(), usage: ModelUsageSchema.optional(), durationMs: z.number().nonnegative().optional() });

/** The budgets that end a turn with one last answer; the time budget expires it instead. */
export const WrapUpBudgetSchema = z.enum(["steps", "tool_calls", "tokens"]);

/** `wrap_up`: journaled before the last call, made without tools because `budget` ran out. */
export const WrapUpDetailSchema = z.object({ step: z.number().int().positive(), budget: WrapUpBudgetSchema });

/** `approval_request`: an action that waits for a person's yes, fsynced before anyone is asked. */
export const ApprovalRequestDetailSchema = PendingApprovalSchema;

/**
 * `approval_decision`: the answer, fsynced before anything acts on it.
 * `expired`: no one answered in time, and the turn ended.
 */
export const ApprovalDecisionDetailSchema = z.object({
  approvalId: z.string(),
  decision: z.enum(["approve", "deny", "expired"]),
  reason: z.string().max(500).optional(),
  /** The principal who answered. */
  by: z.string().optional(),
  /** Through which channel: tool, task, elicitation or console. */
  via: z.string().max(32).optional(),
  at: z.number(),
});

/**
 * `persona`: the persona the turn took on, as resolved when it started. A
 * resume uses this one, even if the persona's file changed meanwhile; its
 * priming is journaled as the turn's `retrieval`.
 */
export const PersonaDetailSchema = z.object({
  name: z.string(),
  version: z.string(),
  systemPrompt: z.string(),
  /** The tools it may use, by base name; the agent's own (remember) come on top. */
  tools: z.array(z.string()),
});

export const JournalRecordSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("model_response"), detail: ModelResponseDetailSchema }),
  z.object({ type: z.literal("tool_call"), detail: ToolCallDetailSchema }),
  z.object({ type: z.literal("tool_result"), detail: ToolResultDetailSchema }),
  z.object({ type: z.literal("retrieval"), detail: RetrievalDetailSchema }),
  z.object({ type: z.literal("summary"), detail: SummaryDetailSchema }),
  z.object({ type: z.literal("wrap_up"), detail: WrapUpDetailSchema }),
  z.object({ type: z.literal("approval_request"), detail: ApprovalRequestDetailSchema }),
  z.object({ type: z.literal("approval_decision"), detail: ApprovalDecisionDetailSchema }),
  z.object({ type: z.literal("persona"), detail: PersonaDetailSchema }),
]);

export type ModelResponseDetail = z.infer<typeof ModelResponseDetailSchema>;
export type ToolCallDetail = z.infer<typeof ToolCallDetailSchema>;
export type ToolResultDetail = z.infer<typeof ToolResultDetailSchema>;
export type WrapUpBudget = z.infer<typeof WrapUpBudgetSchema>;
export type WrapUpDetail = z.infer<typeof WrapUpDetailSchema>;
export type SummaryDetail = z.infer<typeof SummaryDetailSchema>;
export type ApprovalRequestDetail = z.infer<typeof ApprovalRequestDetailSchema>;
export type ApprovalDecisionDetail = z.infer<typeof ApprovalDecisionDetailSchema>;
export type PersonaDetail = z.infer<typeof PersonaDetailSchema>;
/** A journaled step the agent wrote, parsed and typed. */
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
export type JournalRecordType = JournalRecord["type"];

/** The key tying an intent to its result: `continuationId:step:callIndex`. */
export const callKey = (continuationId: string, step: number, index: number): string => `${continuationId}:${step}:${index}`;
