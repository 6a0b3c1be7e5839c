import { z } from "zod";
import type { HomeIndex, TargetIds } from "../../indexer/index.js";
import { LIMITS, names } from "../limits.js";
import { fail, ok, type ToolOutcome } from "../tool.js";

/** Entities one history call reads at most; a target that reaches more is cut, and the answer says so. */
export const MAX_ENTITIES = 50;

const ids = (example: string) => names(20, example).optional();

/** A service target's selectors, each an id or a list of ids, as Home Assistant writes a target. */
export const TargetInput = z
  .object({
    area_id: ids('["kitchen"]'),
    floor_id: ids('["ground_floor"]'),
    label_id: ids('["energy"]'),
    device_id: ids('["a1b2…"]'),
  })
  .describe("Areas, floors, labels or devices (ids) whose entities to read");

export const entityIdsInput = () => names(LIMITS.entityIds).optional().describe('e.g. ["light.hall"]');

const KIND_WORDS = { entity_id: "entity", device_id: "device", area_id: "area", floor_id: "floor", label_id: "label" } as const;

/**
 * The entities a call asks about: the ids it names (each must be in the
 * home the caller may see), then those its target reaches, as Home
 * Assistant expands a target (hidden, config and diagnostic entities left
 * out), without repeats.
 */
export function selectEntities(index: HomeIndex, args: { entity_ids?: string[]; target?: z.infer<typeof TargetInput> }): ToolOutcome<string[]> {
  const named = args.entity_ids ?? [];
  const unknown = named.filter((id) => !index.entity(id));
  if (unknown.length) {
    const close = index.search(unknown[0]!, { limit: 3, includeHidden: true }).map((h) => h.entityId);
    return fail("unknown_entity", `The home has no ${unknown.join(", ")}.${close.length ? ` Closest: ${close.join(", ")}.` : ""} Find entity ids with index_search.`);
  }
  const target: TargetIds = Object.fromEntries(Object.entries(args.target ?? {}).filter(([, v]) => v !== undefined && v.length > 0));
  let reached: string[] = [];
  if (Object.keys(target).length > 0) {
    const r = index.resolveTarget(target);
    if (r.missing.length) {
      return fail("unknown_target", `The home has no ${r.missing.map((m) => `${KIND_WORDS[m.kind]} "${m.id}"`).join(", ")}. Targets take ids, not names; index_search shows them.`);
    }
    if (r.entityIds.length === 0) return fail("empty_target", "The target reaches no entity (areas, floors, devices and labels leave out hidden, config and diagnostic entities); name entities in entity_ids.");
    reached = r.entityIds;
  }
  const all = [...new Set([...named, ...reached])];
  if (all.length === 0) return fail("invalid_argument", 'Give entity_ids, a target, or both, e.g. {"entity_ids": ["light.hall"]} or {"target": {"area_id": "kitchen"}}.');
  return ok(all);
}
