import type { EntitiesMessage, HassState } from "../../src/common/index.js";

/**
 * Rebuilds full states from `subscribe_entities` messages the way clients do,
 * so tests can compare the result with `get_states`.
 */
export function applyEntitiesMessage(states: Map<string, HassState>, msg: EntitiesMessage): void {
  for (const [id, c] of Object.entries(msg.a ?? {})) {
    const lc = new Date(c.lc * 1000).toISOString();
    const context = typeof c.c === "string" ? { id: c.c, parent_id: null, user_id: null } : { id: c.c.id, parent_id: c.c.parent_id ?? null, user_id: c.c.user_id ?? null };
    states.set(id, {
      entity_id: id,
      state: c.s,
      attributes: c.a,
      context,
      last_changed: lc,
      last_updated: c.lu === undefined ? lc : new Date(c.lu * 1000).toISOString(),
    });
  }
  for (const id of msg.r ?? []) states.delete(id);
  for (const [id, diff] of Object.entries(msg.c ?? {})) {
    const old = states.get(id);
    if (!old) throw new Error(`change for unknown entity ${id}`);
    const next: HassState = { ...old, attributes: { ...old.attributes }, context: { ...old.context } };
    const add = diff["+"];
    if (add) {
      if (add.s !== undefined) next.state = add.s;
      if (add.c !== undefined) next.context = typeof add.c === "string" ? { ...next.context, id: add.c } : { ...next.context, ...add.c };
      if (add.lc !== undefined) next.last_updated = next.last_changed = new Date(add.lc * 1000).toISOString();
      else if (add.lu !== undefined) next.last_updated = new Date(add.lu * 1000).toISOString();
      if (add.a) Object.assign(next.attributes, add.a);
    }
    for (const key of diff["-"]?.a ?? []) delete next.attributes[key];
    states.set(id, next);
  }
}

/** A state reduced to what `subscribe_entities` carries, with times normalised, for equality checks. */
export function comparable(s: HassState) {
  return {
    entity_id: s.entity_id,
    state: s.state,
    attributes: s.attributes,
    context: s.context,
    last_changed: Date.parse(s.last_changed),
    last_updated: Date.parse(s.last_updated),
  };
}
