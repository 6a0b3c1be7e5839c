import { z } from "zod";
import { ULID_PATTERN } from "./ids.js";
import { BUDGET_LIMITS, ContinuationStatusSchema, FORMAT_VERSION, storedBudget } from "./session-schema.js";

const Ulid = z.string().regex(ULID_PATTERN, "expected a ULID");

export const ArtifactRefSchema = z.object({
  id: Ulid,
  bytes: z.number().int().nonnegative(),
  mediaType: z.string(),
  name: z.string().optional(),
});

export const ContinuationRequestSchema = z.object({
  message: z.string(),
  allowTools: z.boolean().default(true),
  maxSteps: storedBudget(1, BUDGET_LIMITS.maxSteps).optional(),
  timeBudgetMs: storedBudget(1, BUDGET_LIMITS.maxDurationMs).optional(),
  /** The model the turn runs on, chosen once when it was sent; absent for the add-on's model. */
  model: z.string().min(1).max(255).optional(),
  /**
   * Whether the session's owner was a Home Assistant administrator when the
   * message was sent: a turn taken up after a restart, with no caller to ask,
   * reads Home Assistant and chooses its tools as that owner. Older records
   * have none and read as a non-administrator's.
   */
  ownerIsAdmin: z.boolean().default(false),
  /** The continuation this one sends again (ha_agent_retry). */
  retryOf: Ulid.optional(),
  /** Written by older versions, which kept the chosen model here; read so their records stay valid. */
  plannerHints: z.record(z.string(), z.unknown()).optional(),
  idempotencyKey: z.string().min(1).max(200).optional(),
  /** The model's text goes to the session's event stream as it arrives. */
  stream: z.boolean().optional(),
});

export const CitationSchema = z.object({ source: z.string(), detail: z.string().optional() });

export const ContinuationResponseSchema = z.object({
  finalMessage: z.string(),
  reasoningSummary: z.string().optional(),
  citations: z.array(CitationSchema).optional(),
  followUps: z.array(z.string()).optional(),
});

export const UsageSchema = z.object({
  steps: z.number().int().nonnegative().default(0),
  toolCalls: z.number().int().nonnegative().default(0),
  tokensIn: z.number().int().nonnegative().default(0),
  tokensOut: z.number().int().nonnegative().default(0),
  tokensThinking: z.number().int().nonnegative().default(0),
  /** Model invocations, the memory fold included. */
  modelCalls: z.number().int().nonnegative().default(0),
  /** `provider/model` that answered the turn, for the session's per-model usage. */
  model: z.string().max(200).optional(),
});

export const ContinuationErrorSchema = z.object({ code: z.string(), message: z.string() });

/**
 * The exact service call an approval covers: a changed argument needs a new
 * approval. Records written before saves could be approved have no `kind`.
 */
export const ServiceCallActionSchema = z.object({
  kind: z.literal("call_service").default("call_service"),
  domain: z.string().min(1),
  service: z.string().min(1),
  /** The entity ids the target resolved to when the approval was asked. */
  targets: z.array(z.string()),
  data: z.record(z.string(), z.unknown()).default({}),
});

/** The exact automation an approved save writes: this config, under this id, and nothing else. */
export const AutomationSaveActionSchema = z.object({
  kind: z.literal("automation_save"),
  /** The config id the save writes (a new one is chosen when the approval is asked, so a resume writes the same). */
  id: z.string().min(1),
  /** Whether no automation had this id when the approval was asked. */
  created: z.boolean(),
  /** The automation's entity when it already existed. */
  entityId: z.string().nullable(),
  /** Exactly what is posted to Home Assistant. */
  config: z.record(z.string(), z.unknown()),
  /** A unified diff of the saved automation against this config (YAML); null for a new automation. */
  diff: z.string().nullable(),
  /**
   * A fingerprint of what was saved under the id when the person was asked
   * (null: nothing). A save after the yes writes only while it still holds,
   * so an edit made in Home Assistant meanwhile is never overwritten.
   * Records from before it was kept have none.
   */
  before: z.string().nullable().optional(),
});

/** What an approval covers: one action, exactly as the person saw it. */
export const ApprovalCallSchema = z.union([AutomationSaveActionSchema, ServiceCallActionSchema]);

/** An approval's action as people read it: a service (`light.turn_on`) or `automation_save`, what it acts on, and its data. */
export function approvalShown(call: ApprovalCall): { service: string; targets: string[]; data: Record<string, unknown> } {
  if (call.kind === "automation_save") return { service: "automation_save", targets: call.entityId ? [call.entityId] : [], data: { id: call.id, created: call.created, config: call.config, diff: call.diff } };
  return { service: `${call.domain}.${call.service}`, targets: call.targets, data: call.data };
}

/** An approval's action in a sentence's words: "light.turn_on on light.kitchen_ceiling", "saving the automation 1700000000000". */
export function approvalWords(call: ApprovalCall): string {
  if (call.kind === "automation_save") return `saving the ${call.created ? "new " : ""}automation ${call.entityId ?? call.id}`;
  return `${call.domain}.${call.service} on ${call.targets.join(", ") || "no entity"}`;
}

/** A target's state when the approval was asked, for the person deciding. */
export const TargetStateSchema = z.object({ entityId: z.string(), name: z.string().optional(), state: z.string().nullable() });

/**
 * An action that waits for a person's yes. Held on the record while the
 * turn is `input_required`; the turn's step log holds the same request and,
 * once given, the decision.
 */
export const PendingApprovalSchema = z.object({
  id: Ulid,
  /** The tool call it belongs to: model step and index within the step. */
  step: z.number().int().positive(),
  index: z.number().int().nonnegative(),
  call: ApprovalCallSchema,
  targetStates: z.array(TargetStateSchema).default([]),
  /**
   * `approval_required`: the add-on's options say this service always asks;
   * `not_preapproved`: the session did not allow it beforehand;
   * `automation_edit`: saving an automation always asks.
   */
  why: z.enum(["approval_required", "not_preapproved", "automation_edit"]),
  requestedAt: z.number(),
  /** When an unanswered approval ends the turn. */
  expiresAt: z.number(),
});

/**
 * Whether an approval's deadline has passed. From that moment no answer is
 * taken, whichever channel brings it: the turn ends `expired` and nothing is
 * done. Every check of the deadline (the agent's, boot recovery's) asks this.
 */
export const approvalExpired = (approval: Pick<PendingApproval, "expiresAt">, now: number): boolean => now >= approval.expiresAt;

/** Set by boot recovery on a continuation that was unfinished when the process stopped. */
export const InterruptionSchema = z.object({
  reason: z.string(),
  at: z.number(),
  previousStatus: ContinuationStatusSchema,
  /** `seq` of the last step found intact in the log; 0 when there was none. */
  lastDurableSeq: z.number().int().nonnegative(),
});

export const ContinuationRecordSchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  id: Ulid,
  sessionId: Ulid,
  owner: z.string().min(1),
  status: ContinuationStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  request: ContinuationRequestSchema,
  response: ContinuationResponseSchema.optional(),
  usage: UsageSchema.default(UsageSchema.parse({})),
  artifacts: z.array(ArtifactRefSchema).default([]),
  error: ContinuationErrorSchema.optional(),
  interrupted: InterruptionSchema.optional(),
  /** Set while the turn is `input_required`. */
  approval: PendingApprovalSchema.optional(),
});

export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;
export type ContinuationRequest = z.infer<typeof ContinuationRequestSchema>;
export type ContinuationResponse = z.infer<typeof ContinuationResponseSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type ContinuationRecord = z.infer<typeof ContinuationRecordSchema>;
export type ApprovalCall = z.infer<typeof ApprovalCallSchema>;
export type ServiceCallAction = z.infer<typeof ServiceCallActionSchema>;
export type AutomationSaveAction = z.infer<typeof AutomationSaveActionSchema>;
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;
