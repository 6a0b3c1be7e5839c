import { z } from "zod";
import type { HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { LIMITS, name, names, text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { guarded, selectorFields, filterOf, timesIn } from "./common.js";
import { freshness, freshnessFields, staleLine } from "./freshness.js";

const Input = z.object({
  query: text().optional().describe("Render this search's best matches"),
  entity_ids: names(LIMITS.entityIds).optional().describe("Exactly these"),
  device: name().optional().describe("Device id or name"),
  ...selectorFields,
  max_entities: z.number().int().min(1).max(500).default(60).describe("1-500"),
});

const Output = z.object({
  ...freshnessFields,
  text: z.string().describe("One line per entity, grouped by floor/area and device; a STALE line first while HA is unreachable."),
  token_estimate: z.number().int().describe("Approximate token count of text (about 4 characters per token)."),
  entity_count: z.number().int(),
  omitted: z.number().int().describe("Matching entities left out because of max_entities."),
});

/** The most hits the index's search returns. */
const MAX_SEARCH_HITS = 500;

/** `render_context`: a compact text picture of part of the home, sized for a prompt. */
export function createRenderContextTool(deps: { index: HomeIndex; ha: HaAccess; timeZone?: () => Promise<string> }): ToolSpec {
  return defineTool({
    name: "render_context",
    title: "Describe part of the home",
    description:
      "Part of the home as compact text for a prompt, one line per entity with its state, and its token estimate.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    invoke: (args) =>
      guarded(deps.index, async () => {
        const filter = filterOf(args);
        const selected = Object.entries(filter).some(([k, v]) => k !== "includeHidden" && v !== undefined);
        if (!selected && !args.query?.trim()) {
          return fail("invalid_argument", "Say what to render: query, entity_ids, device, area, floor, label, domain, device_class or state.");
        }
        let entities;
        if (args.query?.trim()) {
          // Search takes every filter but a list of ids; those narrow its hits instead.
          const { entityIds, ...searchFilter } = filter;
          const wanted = entityIds && new Set(entityIds);
          const hits = deps.index.search(args.query, { ...searchFilter, limit: wanted ? MAX_SEARCH_HITS : args.max_entities });
          entities = hits
            .filter((h) => !wanted || wanted.has(h.entityId))
            .slice(0, args.max_entities)
            .flatMap((h) => deps.index.entity(h.entityId) ?? []);
        } else {
          entities = deps.index.query(filter);
        }
        const title = args.query?.trim() ? `Search "${args.query.trim()}"` : undefined;
        const r = deps.index.render(entities, { title, maxEntities: args.max_entities });
        const fresh = freshness(deps.ha, deps.index, timesIn(await deps.timeZone?.()));
        const stale = staleLine(fresh);
        const text = stale ? `${stale}\n${r.text}` : r.text;
        // The render's own estimate, about 4 characters per token, for the text as sent.
        const tokenEstimate = stale ? Math.ceil(text.length / 4) : r.tokenEstimate;
        return ok({ ...fresh, text, token_estimate: tokenEstimate, entity_count: r.entityCount, omitted: r.omitted });
      }),
  });
}
