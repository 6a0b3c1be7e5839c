import type { CompressedState, CompressedStateDiff } from "../ha/index.js";
import type { LiveState } from "./model.js";
import { homeStrings } from "./string-pool.js";

// Attributes whose change alters an entity's name or searchable class.
const STRUCTURAL_ATTRIBUTES = ["friendly_name", "device_class", "unit_of_measurement"];

/** A `subscribe_entities` state, with times in epoch milliseconds. */
export function toLiveState(c: CompressedState): LiveState {
  const lastChanged = c.lc * 1000;
  return { state: homeStrings.ofState(c.s), attributes: c.a ? homeStrings.attributes(c.a) : {}, lastChanged, lastUpdated: c.lu !== undefined ? c.lu * 1000 : lastChanged };
}

/** A state after one `c` diff: changed fields replaced, removed attributes dropped. The old object is left as it was. */
export function applyStateDiff(prev: LiveState, diff: CompressedStateDiff): LiveState {
  const plus = diff["+"];
  let attributes = prev.attributes;
  if (plus?.a || diff["-"]?.a) {
    // Spreading defines own properties, so an attribute named __proto__ stays an attribute.
    attributes = { ...prev.attributes, ...(plus?.a ? homeStrings.attributes(plus.a) : undefined) };
    for (const key of diff["-"]?.a ?? []) delete attributes[key];
  }
  let { lastChanged, lastUpdated } = prev;
  if (plus?.lc !== undefined) lastChanged = lastUpdated = plus.lc * 1000;
  else if (plus?.lu !== undefined) lastUpdated = plus.lu * 1000;
  return { state: plus?.s !== undefined ? homeStrings.ofState(plus.s) : prev.state, attributes, lastChanged, lastUpdated };
}

/** Whether a diff may change the entity's name, class or unit, which the search index holds. */
export function touchesStructure(diff: CompressedStateDiff): boolean {
  const plus = diff["+"]?.a;
  const minus = diff["-"]?.a;
  return STRUCTURAL_ATTRIBUTES.some((k) => (plus !== undefined && Object.hasOwn(plus, k)) || (minus?.includes(k) ?? false));
}
