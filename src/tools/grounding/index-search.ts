import { z } from "zod";
import type { HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { guarded, selectorFields, filterOf } from "./common.js";
import { freshness, freshnessFields } from "./freshness.js";

const Input = z.object({
  query: text()
    .describe(
      'What to look for, in the user\'s own words: names, areas and their aliases, floors ("upstairs"), makers ("aqara"), labels, domains ("lights"). Typos are tolerated. May be empty when filters are given.',
    ),
  limit: z.number().int().min(1).max(100).default(10).describe("How many results to return, best first (1-100, default 10)."),
  ...selectorFields,
});

const Result = z.object({
  entity_id: z.string(),
  name: z.string(),
  domain: z.string(),
  area: z.string().nullable().describe("Area name, or null when the entity has no area."),
  state: z.string().describe('Current state; "unavailable" when HA has none (e.g. a disabled entity).'),
  score: z.number().describe("Relevance; higher is better, comparable only within one answer."),
  why: z.string().describe("Which words of the query matched which part of the entity."),
});

const Output = z.object({ ...freshnessFields, results: z.array(Result) });

/** `index_search`: ranked, explained free-text search over the home. */
export function createIndexSearchTool(deps: { index: HomeIndex; ha: HaAccess }): ToolSpec {
  return defineTool({
    name: "index_search",
    title: "Search the home",
    description:
      "Finds entities by what people call them: name, alias, area, floor, device, manufacturer, label, domain or device class, tolerating typos and plurals. Each result carries its current state and why it matched. Use it to turn a user's words into entity ids.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    invoke: (args) =>
      guarded(deps.index, () => {
        if (!args.query.trim() && !args.domain && !args.area && !args.floor && !args.label && !args.device_class && !args.state) {
          return fail("invalid_argument", "query: give some words to search for, or at least one filter (domain, area, floor, label, device_class, state).");
        }
        const { entityIds: _ids, ...filter } = filterOf(args);
        const hits = deps.index.search(args.query, { ...filter, limit: args.limit });
        return ok({
          ...freshness(deps.ha, deps.index),
          results: hits.map((h) => ({
            entity_id: h.entityId,
            name: h.name,
            domain: h.domain,
            area: h.area,
            state: h.state ?? "unavailable",
            score: h.score,
            why: h.why,
          })),
        });
      }),
  });
}
