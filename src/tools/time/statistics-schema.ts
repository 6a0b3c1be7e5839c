import { z } from "zod";
import { LIMITS, names } from "../limits.js";
import { Time } from "./history-schema.js";
import { timeArgument } from "./time-input.js";

/** The statistics tool's input and output; the work (statistics-run.ts) is loaded at the first call. */

export const STATISTIC_PERIODS = ["5minute", "hour", "day", "week", "month"] as const;
export type StatisticPeriod = (typeof STATISTIC_PERIODS)[number];
export const STATISTIC_TYPES = ["change", "sum", "mean", "min", "max", "state"] as const;
export type StatisticType = (typeof STATISTIC_TYPES)[number];

export const Row = z.object({
  start: Time,
  end: Time,
  change: z.number().optional(),
  sum: z.number().optional(),
  mean: z.number().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  state: z.number().optional(),
});
export type RowOut = z.infer<typeof Row>;

export const STATISTICS_DEFAULT_TOKENS = 3_000;

export const StatisticsInput = z.object({
  statistic_ids: names(100, '["sensor.heat_pump_energy"]').optional().describe("Sensor entity ids or external ids (domain:name)"),
  entity_ids: names(LIMITS.entityIds).optional().describe("Sensors"),
  start: timeArgument().describe("ISO 8601, -90m, -7d, today or yesterday (HA's time zone)"),
  end: timeArgument().optional().describe("Same forms; default now"),
  period: z.enum(STATISTIC_PERIODS).describe("Row length; local periods, weeks from Monday"),
  types: z.array(z.enum(STATISTIC_TYPES)).max(STATISTIC_TYPES.length).optional().describe("Default: change for totals, mean/min/max for measurements"),
  max_tokens: z.number().int().min(200).max(20_000).default(STATISTICS_DEFAULT_TOKENS).describe("Answer budget, 200-20000; oldest rows cut first"),
});

const Statistic = z.object({ statistic_id: z.string(), name: z.string(), unit: z.string().nullable(), rows: z.array(Row) });

export const StatisticsOutput = z.object({
  narrative: z.string(),
  period: z.enum(STATISTIC_PERIODS),
  start: Time,
  end: Time,
  statistics: z.array(Statistic),
  missing: z.array(z.string()).describe("Ids without long-term statistics"),
  truncated: z.boolean(),
});
export type StatisticsArgs = z.infer<typeof StatisticsInput>;
export type StatisticsOut = z.infer<typeof StatisticsOutput>;
