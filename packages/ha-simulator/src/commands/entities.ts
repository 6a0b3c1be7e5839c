import { z } from "zod";
import type { CompressedState } from "../common/index.js";
import { dict } from "../common/index.js";
import type { SimEvent } from "../bus.js";
import { entityFilter } from "../entity-filter.js";
import { compressState, diffStates } from "../state.js";
import { defineCommand, type Command } from "./command.js";
import { entityIds, stringList } from "./fields.js";

/** One side of HA's INCLUDE_EXCLUDE_BASE_FILTER_SCHEMA: `domains`, `entity_globs`, `entities`, each defaulting to none. */
const filterSide = () =>
  z
    .strictObject({ domains: stringList().optional(), entity_globs: stringList().optional(), entities: entityIds().optional() }, { error: "expected a dictionary" })
    .optional()
    .transform((s) => ({ domains: s?.domains ?? [], entity_globs: s?.entity_globs ?? [], entities: s?.entities ?? [] }));

/**
 * `subscribe_entities`: a compressed snapshot, then one diff per change, for
 * the entities `entity_ids` (an empty list means all, as in HA) and the
 * `include`/`exclude` filter select. The diff of a change is serialised once
 * and shared by every subscriber.
 */
export const subscribeEntities: Command = defineCommand(
  "subscribe_entities",
  { entity_ids: entityIds().optional(), include: filterSide(), exclude: filterSide() },
  (conn, msg) => {
    const { id } = msg;
    const home = conn.ctx.home;
    const ids = msg.entity_ids && msg.entity_ids.length > 0 ? new Set(msg.entity_ids) : undefined;
    const filter = entityFilter(msg.include, msg.exclude);
    const wanted = (entityId: string) => (!ids || ids.has(entityId)) && (!filter || filter(entityId));
    const unsub = home.bus.listen("state_changed", (event) => {
      const change = event.change;
      if (!change || !wanted(change.entityId)) return;
      conn.sendEventJson(id, entitiesDiffJson(event));
    });
    conn.addSubscription(id, unsub);
    conn.sendResult(id, null);
    const added = dict<CompressedState>();
    for (const s of home.records()) if (wanted(s.wire.entity_id)) added[s.wire.entity_id] = compressState(s);
    conn.sendEventJson(id, JSON.stringify({ a: added }));
  },
);

function entitiesDiffJson(event: SimEvent): string {
  let json = event.memo.get("entities");
  if (json === undefined) {
    const { entityId, oldState, newState } = event.change!;
    if (!newState) json = JSON.stringify({ r: [entityId] });
    else if (!oldState) json = JSON.stringify({ a: { [entityId]: compressState(newState) } });
    else json = JSON.stringify({ c: { [entityId]: diffStates(oldState, newState) } });
    event.memo.set("entities", json);
  }
  return json;
}
