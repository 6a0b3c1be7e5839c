import { z } from "zod";
import { TargetInput, entityIdsInput } from "./selection.js";
import { timeArgument } from "./time-input.js";

/**
 * The history tool's input and output. Loaded with the tool's declaration;
 * the work itself (history-run.ts) is loaded at the first call.
 */

/** The times the time tools hand out: ISO 8601 with Home Assistant's local offset. */
export const Time = z.string().describe("ISO 8601 in Home Assistant's time zone");

const Bucket = z.object({ start: Time, end: Time, min: z.number(), mean: z.number(), max: z.number() });

export const HistoryEntity = z.object({
  entity_id: z.string(),
  name: z.string(),
  source: z.enum(["history", "statistics"]).describe("statistics: long-term hourly statistics, for periods older than the recorder keeps states"),
  time_in_state: z.array(z.object({ state: z.string(), duration_s: z.number() })).describe("Longest first"),
  changes_total: z.number().int().describe("State changes in the period"),
  changes: z.array(z.object({ state: z.string(), start: Time, end: Time.nullable().describe("null while it is the state now"), duration_s: z.number() })),
  numeric: z
    .object({
      unit: z.string().nullable(),
      min: z.number(),
      max: z.number(),
      mean: z.number().describe("time-weighted"),
      first: z.number(),
      last: z.number(),
      change: z.number().optional().describe("how much a total grew"),
      buckets: z.array(Bucket),
    })
    .optional(),
});
export type HistoryEntityOut = z.infer<typeof HistoryEntity>;

export const HISTORY_DEFAULT_TOKENS = 2_000;

export const HistoryInput = z.object({
  entity_ids: entityIdsInput(),
  target: TargetInput.optional(),
  start: timeArgument().describe("ISO 8601, -90m, -7d, today or yesterday (HA's time zone)"),
  end: timeArgument().optional().describe("Same forms; default now"),
  max_tokens: z.number().int().min(200).max(20_000).default(HISTORY_DEFAULT_TOKENS).describe("Answer budget, 200-20000"),
});

export const HistoryOutput = z.object({
  narrative: z.string(),
  start: Time,
  end: Time,
  entities: z.array(HistoryEntity),
  truncated: z.boolean(),
});
export type HistoryArgs = z.infer<typeof HistoryInput>;
export type HistoryOut = z.infer<typeof HistoryOutput>;
