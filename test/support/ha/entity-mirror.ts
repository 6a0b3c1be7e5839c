import type { CompressedState, EntitiesMessage } from "../../../src/ha/types.js";

export interface MirroredState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context_id: string;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Rebuilds full states from `subscribe_entities` messages the way a consumer
 * must: a snapshot replaces everything, then `a`/`r`/`c` apply on top.
 */
export function createEntityMirror() {
  const entities = new Map<string, CompressedState>();
  let snapshots = 0;
  let messages = 0;

  function apply(message: EntitiesMessage, snapshot: boolean) {
    messages++;
    if (snapshot) {
      entities.clear();
      snapshots++;
    }
    for (const [id, state] of Object.entries(message.a ?? {})) entities.set(id, structuredClone(state));
    for (const id of message.r ?? []) entities.delete(id);
    for (const [id, diff] of Object.entries(message.c ?? {})) {
      const current = entities.get(id);
      if (!current) continue;
      const plus = diff["+"];
      if (plus) {
        const { a: attributes, ...rest } = plus;
        Object.assign(current, rest);
        if (plus.lc !== undefined && plus.lu === undefined) delete current.lu;
        if (attributes) current.a = { ...current.a, ...attributes };
      }
      for (const key of diff["-"]?.a ?? []) delete current.a[key];
    }
  }

  function states(): MirroredState[] {
    return [...entities]
      .map(([entity_id, s]) => ({
        entity_id,
        state: s.s,
        attributes: s.a,
        last_changed: iso(s.lc),
        last_updated: iso(s.lu ?? s.lc),
        context_id: typeof s.c === "string" ? s.c : s.c.id,
      }))
      .sort((x, y) => x.entity_id.localeCompare(y.entity_id));
  }

  return { apply, states, snapshots: () => snapshots, messages: () => messages, has: (id: string) => entities.has(id) };
}
