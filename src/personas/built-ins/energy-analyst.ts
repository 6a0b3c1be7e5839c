import { z } from "zod";
import { describeError } from "../../shared/index.js";
import { createEnergyTool, namedPeriod, periodArgument, type EnergyOut, type NamedPeriod } from "../../tools/index.js";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type PersonaContext, type PersonaSpec } from "../persona.js";
import { fitPriming, type PrimingSection } from "../priming.js";
import { energySections, NO_ENERGY } from "../sections.js";
import { areaEntities, asOf, zoneOf } from "../targets.js";

const Args = z.object({
  period: periodArgument().describe('The period: "today", "yesterday", "this week", "last month", "-7d" or a date such as "2026-11-20".'),
  area: z.string().min(1).max(255).optional().describe("Only this area, by name or id."),
  max_tokens: maxTokensArgument,
});

const SYSTEM = [
  "You are HA Agent's energy analyst for a Home Assistant home.",
  "Explain where energy went over the period asked, as Home Assistant's Energy dashboard counts it: totals from energy first (grid, solar, battery, gas, water), then the largest consumers, with numbers and units.",
  "Use statistics for a day-by-day or hour-by-hour breakdown of a meter, and history for when a device ran. Say plainly when a figure is a current reading rather than a total for the period.",
].join(" ");

/** `energy_analyst`: where the energy went over a period, primed with the Energy dashboard's totals for it. */
export function energyAnalyst(): PersonaSpec {
  return definePersona({
    name: "energy_analyst",
    title: "Energy analyst",
    description: "Explains where energy went over a period: primed with the Energy dashboard's totals for it (grid, solar, battery, gas, water, devices) and the energy and power sensors now.",
    version: "2",
    arguments: Args,
    kinds: { area: "area" },
    async resolve(args, ctx) {
      const now = ctx.clock.now();
      const zone = await zoneOf(ctx);
      const asked = namedPeriod(args.period, { now, zone })!;
      const scope = areaEntities(ctx, args.area ?? "");
      const where = args.area ? ` in ${scope[0]?.areaName ?? args.area}` : "";
      const totals = await periodTotals(ctx, asked);
      const sections = [...totalsSections(totals, args.area ? new Set(scope.map((e) => e.entityId)) : undefined), ...energySections(scope, now, zone)];
      const none = sections.some((s) => s.lines.length) ? "" : `\n${NO_ENERGY}`;
      const fitted = fitPriming({ heading: `# Energy${where}, ${args.period} ${asOf(now, zone)}${none}`, sections, maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS });
      const call = JSON.stringify(asked);
      return {
        systemPrompt: `${SYSTEM}\nThe period asked about: ${args.period}; energy takes it as ${call}, and statistics and history take the same start.`,
        priming: fitted.text,
        tools: ["energy", "statistics", "history", "state_query", "index_search"],
        omitted: fitted.omitted,
      };
    },
  });
}

/** The energy tool's answer for the period, for the person the persona is resolved for; its failure in words otherwise. */
async function periodTotals(ctx: PersonaContext, asked: NamedPeriod): Promise<{ ok: true; value: EnergyOut } | { ok: false; message: string }> {
  const tool = createEnergyTool({
    index: ctx.index,
    ha: ctx.ha,
    clock: ctx.clock,
    ...(ctx.timeZone ? { timeZone: () => ctx.timeZone!() } : {}),
    ...(ctx.displayName ? { displayName: (id: string) => ctx.displayName!(id) } : {}),
  });
  try {
    const outcome = await tool.invoke(tool.input.parse(asked), { principal: ctx.caller, signal: AbortSignal.timeout(15_000), progress: async () => {} });
    return outcome.ok ? { ok: true, value: outcome.value as EnergyOut } : { ok: false, message: outcome.error.message };
  } catch (err) {
    // The sensors still prime the answer; the model can ask energy itself.
    ctx.logger.warn({ err: describeError(err) }, "the energy analyst could not read the period's energy totals");
    return { ok: false, message: `The period's energy totals could not be read: ${describeError(err)}` };
  }
}

/** The period's totals as priming: the story, then each device's use (only the area's devices when one is asked). */
function totalsSections(totals: Awaited<ReturnType<typeof periodTotals>>, inArea: Set<string> | undefined): PrimingSection[] {
  if (!totals.ok) return [{ title: "Energy totals for the period", lines: [`- ${totals.message}`], more: "energy" }];
  const t = totals.value;
  const devices = t.devices.filter((d) => !inArea || inArea.has(d.statistic_id));
  return [
    { title: "Energy totals for the period (Energy dashboard)", lines: [`- ${t.narrative}`], more: `energy with start ${t.start}` },
    { title: "Devices, largest first", lines: devices.map((d) => `- ${d.statistic_id} (${d.name}): ${d.consumed} kWh`), more: "energy" },
  ];
}
