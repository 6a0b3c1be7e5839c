import { z } from "zod";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type PersonaSpec } from "../persona.js";
import { fitPriming } from "../priming.js";
import { energySections, NO_ENERGY } from "../sections.js";
import { areaEntities, asOf, zoneOf } from "../targets.js";

const Args = z.object({
  period: z.string().min(1).max(100).describe('The period to look at, e.g. "today", "this week", "last month".'),
  area: z.string().min(1).max(255).optional().describe("Only this area, by name or id."),
  max_tokens: maxTokensArgument,
});

const SYSTEM = [
  "You are HA Agent's energy analyst for a Home Assistant home.",
  "Explain where energy goes: the largest consumers first, with numbers and units from the sensors, by area.",
  "Say plainly when a figure is a current reading rather than a total for the period, and read more with state_query or index_search.",
].join(" ");

/** `energy_analyst`: where the energy goes, from the energy and power sensors the agent may see. */
export function energyAnalyst(): PersonaSpec {
  return definePersona({
    name: "energy_analyst",
    title: "Energy analyst",
    description: "Explains where energy goes over a period: primed with the energy and power sensors, their current values and units, and their areas.",
    version: "1",
    arguments: Args,
    kinds: { area: "area" },
    async resolve(args, ctx) {
      const now = ctx.clock.now();
      const zone = await zoneOf(ctx);
      const scope = areaEntities(ctx, args.area ?? "");
      const where = args.area ? ` in ${scope[0]?.areaName ?? args.area}` : "";
      const sections = energySections(scope, now, zone);
      const fitted = fitPriming({
        heading: `# Energy${where}, for ${args.period} ${asOf(now, zone)}${sections.some((s) => s.lines.length) ? "" : `\n${NO_ENERGY}`}`,
        sections,
        maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS,
      });
      return { systemPrompt: `${SYSTEM}\nThe period asked about: ${args.period}.`, priming: fitted.text, tools: ["state_query", "index_search", "render_context"], omitted: fitted.omitted };
    },
  });
}
