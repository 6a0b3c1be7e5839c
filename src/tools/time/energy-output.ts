import { z } from "zod";
import { Time } from "./history-output.js";

const Amount = z.number().describe("kWh");

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
