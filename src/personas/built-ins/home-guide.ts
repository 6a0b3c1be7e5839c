import { z } from "zod";
import { PersonaError } from "../errors.js";
import { definePersona, DEFAULT_MAX_TOKENS, maxTokensArgument, type PersonaSpec } from "../persona.js";
import { fitPriming } from "../priming.js";
import { activeNow, areaOverview } from "../sections.js";
import { areaEntities, asOf, stateLine, zoneOf } from "../targets.js";

const Args = z.object({
  area: z.string().min(1).max(255).optional().describe("Only this area, by name or id."),
  floor: z.string().min(1).max(255).optional().describe("Only this floor, by name or id."),
  max_tokens: maxTokensArgument,
});

const SYSTEM = [
  "You are HA Agent's guide to a Home Assistant home.",
  "Tell the user about their home: its floors and areas, what is in each, and what is on or open now.",
  "Be concrete and brief, name entities by their names, and read more with index_search, state_query or render_context.",
].join(" ");

/** `home_guide`: "tell me about my home", by floor and area. */
export function homeGuide(): PersonaSpec {
  return definePersona({
    name: "home_guide",
    title: "Home guide",
    description: "Tells the user about their home: primed with its floors and areas, what is in them, and what is on now.",
    version: "1",
    arguments: Args,
    kinds: { area: "area" },
    async resolve(args, ctx) {
      if (args.area && args.floor) throw new PersonaError("invalid_argument", "home_guide takes an area or a floor, not both; give one, or neither for the whole home.");
      const now = ctx.clock.now();
      const zone = await zoneOf(ctx);
      const entities = areaEntities(ctx, args.area ?? "", args.floor);
      const overview = areaOverview(entities);
      const active = activeNow(entities);
      const scope = args.area ? `area ${entities[0]?.areaName ?? args.area}` : args.floor ? `floor ${entities[0]?.floorName ?? args.floor}` : "the home";
      const fitted = fitPriming({
        heading: `# ${scope} ${asOf(now, zone)}: ${entities.length} entities the agent may see`,
        sections: [
          { title: "Floors and areas, with what is in them", lines: overview, more: "render_context with an area or floor" },
          { title: "On or open now", lines: active.map((e) => stateLine(e, now, zone)), more: 'state_query with state "on"' },
        ],
        maxTokens: args.max_tokens ?? DEFAULT_MAX_TOKENS,
      });
      return { systemPrompt: `${SYSTEM}\nThe user asks about ${scope}.`, priming: fitted.text, tools: ["index_search", "state_query", "render_context"], omitted: fitted.omitted };
    },
  });
}
