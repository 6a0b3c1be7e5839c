import { z } from "zod";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type PersonaSpec } from "../persona.js";
import { fitPriming } from "../priming.js";
import { areaEntities, stateLine } from "../targets.js";

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
      const scope = areaEntities(ctx, args.area ?? "");
      const byClass = (cls: string) => scope.filter((e) => e.deviceClass === cls && e.domain === "sensor");
      const reading = (e: (typeof scope)[number]) => Number(e.state?.state ?? Number.NaN);
      // Largest first: those are what the user asks about.
      const ranked = (cls: string) => byClass(cls).sort((a, b) => (reading(b) || 0) - (reading(a) || 0));
      const where = args.area ? ` in ${scope[0]?.areaName ?? args.area}` : "";
      const energy = ranked("energy");
      const power = ranked("power");
      const fitted = fitPriming({
        heading: `# Energy${where}, for ${args.period} (as of ${new Date(now).toISOString()})${energy.length + power.length ? "" : "\nNo energy or power sensor is exposed to Assist; the user can expose them in Home Assistant's voice assistant settings."}`,
        sections: [
          { title: "Energy sensors (totals), largest first", lines: energy.map((e) => stateLine(e, now)), more: 'state_query with device_class "energy"' },
          { title: "Power sensors (now), largest first", lines: power.map((e) => stateLine(e, now)), more: 'state_query with device_class "power"' },
        ],
        maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS,
      });
      return { systemPrompt: `${SYSTEM}\nThe period asked about: ${args.period}.`, priming: fitted.text, tools: ["state_query", "index_search", "render_context"], omitted: fitted.omitted };
    },
  });
}
