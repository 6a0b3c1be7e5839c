import { z } from "zod";
import { ArtifactRefSchema, ContinuationErrorSchema, ContinuationResponseSchema, UsageSchema } from "./continuation-schema.js";
import { SessionMemorySchema } from "./session-schema.js";

/**
 * What a step log records. `model_response` keeps each completed model call
 * with its usage, so a resume replays it instead of paying for it again;
 * `wrap_up` marks the last call of a turn whose budget ran out;
 * `approval_request` and `approval_decision` hold an action that waited for
 * a person, and their answer.
 */
export const STEP_TYPES = [
  "plan",
  "tool_call",
  "tool_result",
  "retrieval",
  "observed_event",
  "summary",
  "error",
  "model_response",
  "wrap_up",
  "approval_request",
  "approval_decision",
  "persona",
] as const;

/** What a caller appends. */
export const StepEntrySchema = z.object({
  type: z.enum(STEP_TYPES),
  detail: z.unknown(),
  /** Ties an intent to its result, e.g. `continuationId:step:callIndex`. */
  key: z.string().optional(),
  artifact: ArtifactRefSchema.optional(),
});

/** One line of `logs/{contId}.log`, as stored. */
export const LogLineSchema = StepEntrySchema.extend({
  seq: z.number().int().positive(),
  ts: z.number(),
  crc: z.string().regex(/^[0-9a-f]{8}$/).optional(),
});

export type StepEntry = z.infer<typeof StepEntrySchema>;
export type LogLine = z.infer<typeof LogLineSchema>;

/**
 * The store's own last line of a finished turn: its final status and result.
 * It is fsynced with the turn's last steps, before the turn file and
 * `session.json` are rewritten, so recovery can redo those writes from it.
 * Callers cannot append it; `steps.read` leaves it out.
 */
export const FinalDetailSchema = z.object({
  status: z.enum(["completed", "failed", "cancelled", "expired"]),
  response: ContinuationResponseSchema.optional(),
  error: ContinuationErrorSchema.optional(),
  usage: UsageSchema,
  /** The session memory this finish saved, when it saved one. */
  memory: SessionMemorySchema.optional(),
});

/** A line as stored: a step, or the `final` line. */
export const StoredLineSchema = LogLineSchema.extend({ type: z.enum([...STEP_TYPES, "final"]) });

export type FinalDetail = z.infer<typeof FinalDetailSchema>;
export type StoredLine = z.infer<typeof StoredLineSchema>;
export type StoredEntry = Omit<StoredLine, "seq" | "ts" | "crc">;
