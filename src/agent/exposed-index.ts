import type { HomeIndex, IndexedEntity } from "../indexer/index.js";

/**
 * The home as the agent may see it: the same index, with entities that are
 * not exposed to Assist left out of every answer. The grounding tools built
 * on this view therefore never show the model an entity the user kept from
 * their voice assistant.
 */
export function exposedView(index: HomeIndex, visible: (e: IndexedEntity) => boolean): HomeIndex {
  const ok = (id: string) => {
    const e = index.entity(id);
    return e !== undefined && visible(e);
  };
  return {
    start: () => index.start(),
    get ready() {
      return index.ready;
    },
    get catchingUpSince() {
      return index.catchingUpSince;
    },
    search: (query, opts) => index.search(query, { ...opts, limit: (opts?.limit ?? 10) * 3 }).filter((hit) => ok(hit.entityId)).slice(0, opts?.limit ?? 10),
    entity: (id) => {
      const e = index.entity(id);
      return e && visible(e) ? e : undefined;
    },
    query: (filter) => index.query(filter).filter(visible),
    stats: () => index.stats(),
    states: () => new Map([...index.states()].filter(([id]) => ok(id))),
    devices: () => index.devices(),
    device: (id) => index.device(id),
    entitiesOfDevice: (id) => index.entitiesOfDevice(id).filter(ok),
    render: (entities, opts) => index.render(entities.filter(visible), opts),
    resolveTarget: (target, domain) => {
      const resolved = index.resolveTarget(target, domain);
      return { ...resolved, entityIds: resolved.entityIds.filter(ok) };
    },
    whenIdle: () => index.whenIdle(),
    stop: () => index.stop(),
  };
}
