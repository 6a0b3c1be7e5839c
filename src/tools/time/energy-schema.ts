import { z } from "zod";
import { Time } from "./history-schema.js";
import { CALENDAR_PERIODS } from "./periods.js";
import { timeArgument } from "./time-input.js";

const Amount = z.number().describe("kWh");

/** The energy tool's input; the work (energy-run.ts) is loaded at the first call. */
export const EnergyInput = z.object({
  start: timeArgument().describe("ISO 8601, -90m, -7d, today or yesterday (HA's time zone)"),
  end: timeArgument().optional().describe("Same forms; default now"),
  period: z.enum(CALENDAR_PERIODS).optional().describe('Whole local periods; without end, the one holding start ("today" and "week": this week)'),
});
export type EnergyArgs = z.infer<typeof EnergyInput>;

/** What the energy tool answers: the Energy dashboard's figures for one period. */
export const EnergyOutput = z.object({
  narrative: z.string(),
  start: Time,
  end: Time,
  unit: z.literal("kWh"),
  consumed: Amount.describe("What the home used: grid in − out + solar + wind + battery out − in"),
  grid: z.object({ imported: Amount, exported: Amount }),
  solar: z.object({ produced: Amount }).optional(),
  wind: z.object({ produced: Amount }).optional(),
  battery: z.object({ charged: Amount, discharged: Amount }).optional(),
  gas: z.object({ consumed: z.number(), unit: z.string() }).optional(),
  water: z.object({ consumed: z.number(), unit: z.string() }).optional(),
  devices: z.array(z.object({ statistic_id: z.string(), name: z.string(), consumed: Amount })).describe("Largest first"),
  untracked: Amount.optional().describe("Used by the home but by no listed device"),
});
export type EnergyOut = z.infer<typeof EnergyOutput>;

export const ENERGY_NOT_CONFIGURED =
  "Home Assistant's Energy dashboard is not set up, so there are no energy totals. An administrator can set it up in Settings → Dashboards → Energy (grid meters, solar, battery, devices); until then, statistics and history read single meters.";
