import { defineTool, type ToolSpec } from "../tool.js";
import type { TimeToolDeps } from "./common.js";
import { EnergyInput, EnergyOutput } from "./energy-schema.js";

/** `energy`: the Energy dashboard's totals for a period, from long-term statistics, with the story first. */
export function createEnergyTool(deps: TimeToolDeps): ToolSpec {
  return defineTool({
    name: "energy",
    title: "Energy use",
    description: "Energy over a period as the Energy dashboard counts it: grid import and export, solar, battery, gas, water, each device's use (kWh).",
    input: EnergyInput,
    output: EnergyOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // Loaded at the first call: a program that never reads energy does not hold its code.
    invoke: async (args, ctx) => (await import("./energy-run.js")).runEnergy({ deps, args, ctx }),
  });
}
