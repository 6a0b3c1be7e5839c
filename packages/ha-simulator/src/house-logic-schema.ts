import { z } from "zod";

/**
 * The parts of a house document about time and logic: the automations and
 * scripts HA keeps in automations.yaml and scripts.yaml, past automation runs
 * (which become the traces HA restored at start), history that is written out
 * rather than generated, and the energy preferences with the meters behind them.
 */

/** A JSON object taken as written (configs are HA's raw YAML, kept as the user wrote them). */
const jsonObject = () =>
  z.custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v), { message: "expected an object" });

/** An instant: epoch milliseconds or ISO 8601 text. */
const instant = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ms = typeof v === "number" ? v : Date.parse(v);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: "custom", message: "expected epoch milliseconds or an ISO 8601 time" });
    return z.NEVER;
  }
  return ms;
});

/**
 * A run of an automation before the simulator started. At start the simulator
 * plays it through the automation's own config against the recorded history at
 * `at`, and keeps the trace HA would have stored (and restored after a restart).
 */
export const HouseAutomationRunSchema = z.object({
  /** The automation's config `id`, or its `alias` when it has no id. */
  automation: z.string().min(1),
  at: instant,
  /** Which of its triggers fired (the trace path `trigger/<n>`). */
  trigger: z.number().int().min(0).default(0),
});

/** State changes written out for an entity; they replace its generated history. The last one is the current state. */
export const HouseScriptedHistorySchema = z.object({
  entity_id: z.string(),
  changes: z.array(z.object({ at: instant, state: z.string(), attributes: jsonObject().optional() })).min(1),
});

/** What a meter measures; the energy model produces each flow hour by hour. */
export const METER_FLOWS = ["grid_import", "grid_export", "solar", "battery_charge", "battery_discharge", "gas", "water", "device"] as const;
export const DEVICE_PATTERNS = ["continuous", "morning", "daytime", "evening", "cycles", "heating"] as const;

export const HouseMeterSchema = z.object({
  /** The meter's entity id, which is also its statistic id. */
  statistic_id: z.string(),
  flow: z.enum(METER_FLOWS),
  /** For devices: energy on an average day, in kWh, and when it is used. */
  kwh_per_day: z.number().positive().optional(),
  pattern: z.enum(DEVICE_PATTERNS).default("continuous"),
  /** The reading restarts at local midnight (an "energy today" sensor); the statistics sum goes on. */
  daily_reset: z.boolean().default(false),
});

export const HouseEnergySchema = z.object({
  /** What `energy/get_prefs` answers (HA's storage minor version 3); absent means the Energy dashboard was never set up. */
  prefs: jsonObject().optional(),
  meters: z.array(HouseMeterSchema).default([]),
  /** Days of hourly statistics before start. */
  days: z.number().int().min(1).max(400).default(30),
  seed: z.number().int().default(1),
  base_load_w: z.number().min(0).default(180),
  solar_kwp: z.number().min(0).default(0),
  battery_kwh: z.number().min(0).default(0),
});

export type HouseAutomationRun = z.infer<typeof HouseAutomationRunSchema>;
export type HouseScriptedHistory = z.infer<typeof HouseScriptedHistorySchema>;
export type HouseMeter = z.infer<typeof HouseMeterSchema>;
export type HouseEnergy = z.infer<typeof HouseEnergySchema>;
export type MeterFlow = (typeof METER_FLOWS)[number];

/** The house fields these schemas add. */
export const houseLogicFields = {
  /** automations.yaml: each item one automation's config as written. */
  automations: z.array(jsonObject()).default([]),
  /** scripts.yaml: script object id → config. */
  scripts: z.record(z.string(), jsonObject()).default({}),
  automation_runs: z.array(HouseAutomationRunSchema).default([]),
  energy: HouseEnergySchema.optional(),
};
