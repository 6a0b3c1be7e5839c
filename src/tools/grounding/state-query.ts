import { z } from "zod";
import type { HaAccess } from "../../ha/index.js";
import type { HomeIndex, IndexedEntity } from "../../indexer/index.js";
import { LIMITS, name, names } from "../limits.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import { guarded, selectorFields, filterOf, timesIn } from "./common.js";
import { freshness, freshnessFields } from "./freshness.js";

const Input = z.object({
  entity_ids: names(LIMITS.entityIds).optional().describe('e.g. ["light.kitchen"]'),
  device: name().optional().describe("Device id or name"),
  ...selectorFields,
  include_attributes: z.boolean().default(false).describe("Every attribute"),
  attributes: names(100).optional().describe('Only these attributes, e.g. ["brightness"]'),
  limit: z.number().int().min(1).max(1000).default(100).describe("1-1000"),
});

const Entity = z.object({
  entity_id: z.string(),
  name: z.string(),
  state: z.string().nullable().describe("Null when HA has no state for it (e.g. disabled)."),
  area: z.string().nullable(),
  last_changed: z.string().nullable().describe("ISO 8601 time of the last state change."),
  unit: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});

const Output = z.object({
  ...freshnessFields,
  entities: z.array(Entity),
  total: z.number().int().describe("How many entities matched before the limit."),
  truncated: z.boolean(),
  missing: z.array(z.string()).describe("Requested entity ids that the home does not have."),
});

function pickAttributes(e: IndexedEntity, all: boolean, names: string[] | undefined): Record<string, unknown> | undefined {
  if (!e.state) return all || names ? {} : undefined;
  if (all) return e.state.attributes;
  if (!names) return undefined;
  const attributes = e.state.attributes;
  // Only attributes the entity has: a name like "constructor" must not reach Object.prototype.
  return Object.fromEntries(names.filter((n) => Object.hasOwn(attributes, n)).map((n) => [n, attributes[n]]));
}

/** `state_query`: current states by ids, area, floor, domain, label or device. */
export function createStateQueryTool(deps: { index: HomeIndex; ha: HaAccess; timeZone?: () => Promise<string> }): ToolSpec {
  return defineTool({
    name: "state_query",
    title: "Read current states",
    description:
      "Current states of entities by ids and/or filters (all must match), without attributes unless asked; index_search finds ids.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    invoke: (args) =>
      guarded(deps.index, async () => {
        const iso = timesIn(await deps.timeZone?.());
        const missing = (args.entity_ids ?? []).filter((id) => !deps.index.entity(id));
        const matched = deps.index.query(filterOf(args));
        const shown = matched.slice(0, args.limit);
        return ok({
          ...freshness(deps.ha, deps.index, iso),
          entities: shown.map((e) => {
            const attributes = pickAttributes(e, args.include_attributes, args.attributes);
            return {
              entity_id: e.entityId,
              name: e.name,
              state: e.state?.state ?? null,
              area: e.areaName,
              last_changed: e.state ? iso(e.state.lastChanged) : null,
              unit: e.unit,
              ...(attributes ? { attributes } : {}),
            };
          }),
          total: matched.length,
          truncated: matched.length > shown.length,
          missing,
        });
      }),
  });
}
