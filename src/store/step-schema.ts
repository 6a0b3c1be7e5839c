import { z } from "zod";
import { ArtifactRefSchema } from "./continuation-schema.js";

/**
 * Seed 004's step types, plus `model_response` (each completed model call with
 * its usage, so a resume replays instead of paying again).
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
