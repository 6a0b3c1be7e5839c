import { z } from "zod";
import type { HaAccess } from "../../ha/index.js";
import { IndexFilterError, searchNote, type HomeIndex, type SearchOptions, type SearchResult } from "../../indexer/index.js";
import { name, text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { guarded, selectorFields, filterOf, timesIn } from "./common.js";
import { freshness, freshnessFields } from "./freshness.js";

const Input = z.object({
  query: text().describe('The request as said, e.g. "is the front door locked?"; "" with filters'),
  limit: z.number().int().min(1).max(100).default(10).describe("1-100"),
  near_area: name().optional().describe("Area the request was spoken in: its entities rank first. Not a filter."),
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

const Output = z.object({
  ...freshnessFields,
  note: z.string().optional().describe("Present when nothing in the query named a device (these are entities of the kind it points at), when several fit equally, when nothing matched, or when near_area named no area."),
  results: z.array(Result),
});

/**
 * A search that prefers `near` when it names an area; a soft preference
 * that names none is left out rather than failing the call.
 */
function searchNear(args: { index: HomeIndex; query: string; opts: SearchOptions; near: string | undefined }): { hits: SearchResult[]; usedNear?: string; unknownNear?: true } {
  if (args.near) {
    try {
      return { hits: args.index.search(args.query, { ...args.opts, nearArea: args.near }), usedNear: args.near };
    } catch (err) {
      if (!(err instanceof IndexFilterError && err.code === "unknown_area")) throw err;
      return { hits: args.index.search(args.query, args.opts), unknownNear: true };
    }
  }
  return { hits: args.index.search(args.query, args.opts) };
}

/** `index_search`: ranked, explained free-text search over the home. */
export function createIndexSearchTool(deps: { index: HomeIndex; ha: HaAccess; timeZone?: () => Promise<string> }): ToolSpec {
  return defineTool({
    name: "index_search",
    title: "Search the home",
    description:
      'Finds the entities a request is about from the user\'s own words, any language: names, areas, floors, makers, labels, what devices do ("water the lawn" → valves). Best first, with state and why.',
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    invoke: (args) =>
      guarded(deps.index, async () => {
        if (!args.query.trim() && !args.domain && !args.area && !args.floor && !args.label && !args.device_class && !args.state) {
          return fail("invalid_argument", "query: give some words to search for, or at least one filter (domain, area, floor, label, device_class, state).");
        }
        const { entityIds: _ids, ...filter } = filterOf(args);
        // An area filter already says where; a preference for another area would only reorder within it.
        const near = args.area ? undefined : args.near_area;
        const found = searchNear({ index: deps.index, query: args.query, opts: { ...filter, limit: args.limit }, near });
        const note = [found.unknownNear ? `near_area "${near}" names no area of this home, so it was not used.` : "", searchNote({ query: args.query, results: found.hits, ...(found.usedNear ? { nearArea: found.usedNear } : {}) }) ?? ""]
          .filter(Boolean)
          .join(" ");
        const hits = found.hits;
        return ok({
          ...freshness(deps.ha, deps.index, timesIn(await deps.timeZone?.())),
          ...(note ? { note } : {}),
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
