import type { HomeIndex, TargetKind } from "../../indexer/index.js";
import { fail, ok, type ToolOutcome } from "../tool.js";
import { MAX_TARGETS, parseCall, targetOf, type CallServiceArgs } from "./call-service-input.js";

const KIND_WORDS: Record<TargetKind, string> = { entity_id: "entity", device_id: "device", area_id: "area", floor_id: "floor", label_id: "label" };

const FIND_IDS = "index_search and state_query show each entity's id, area, floor, device and labels";

/**
 * The entities a call acts on, or a failure that says why it would act on
 * none or too many. A target that reaches nothing is an error, never a
 * call that quietly does nothing.
 */
export function resolveCallTargets(index: HomeIndex, args: CallServiceArgs): ToolOutcome<string[]> {
  const target = targetOf(args);
  if (!target) return ok([]);
  const name = `${args.domain}.${args.service}`;
  // Checked through the index the caller may see: an entity kept from it is as unknown as one that does not exist.
  const unknown = (target.entity_id ?? []).filter((id) => !index.entity(id));
  if (unknown.length) return fail("unknown_entity", `The home has no ${unknown.join(", ")}. Find entity ids with index_search.`);
  const r = index.resolveTarget(target, args.domain);
  if (r.missing.length) {
    const named = r.missing.map((m) => `${KIND_WORDS[m.kind]} "${m.id}"`).join(", ");
    return fail("unknown_target", `The home has no ${named}. Targets take ids, not names; ${FIND_IDS}.`);
  }
  if (r.unavailable.length) {
    return fail("unknown_entity", `${r.unavailable.join(", ")} has no state in Home Assistant (disabled or not loaded), so ${name} cannot act on it.`);
  }
  if (r.otherDomain.length) {
    return fail(
      "wrong_domain",
      `${name} acts only on ${args.domain} entities, and ${r.otherDomain.join(", ")} is not one. Call the service of that entity's own domain, or homeassistant.${args.service} for several domains at once.`,
    );
  }
  if (!r.entityIds.length) {
    return fail(
      "empty_target",
      `The target reaches no entity ${name} could act on. Like Home Assistant, areas, floors, devices and labels leave out hidden, disabled, config and diagnostic entities; name such an entity in entity_id, or ${FIND_IDS}.`,
    );
  }
  if (r.entityIds.length > MAX_TARGETS) {
    return fail(
      "too_many_targets",
      `The target reaches ${r.entityIds.length} entities; one call may act on at most ${MAX_TARGETS}, so a single mistaken call cannot switch a whole home. Narrow the target (an area rather than a floor, or entity ids) or split the call.`,
    );
  }
  return ok(r.entityIds);
}

/**
 * The entities a call_service call with these raw arguments acts on, for
 * reading its effect back when its outcome is unknown. Empty when the
 * arguments name none; the ids named directly when they no longer resolve.
 */
export function targetsOfCall(index: HomeIndex, rawArgs: unknown): string[] {
  const call = parseCall(rawArgs);
  if (!call) return [];
  const resolved = resolveCallTargets(index, call);
  return resolved.ok ? resolved.value : [...(targetOf(call)?.entity_id ?? [])];
}
