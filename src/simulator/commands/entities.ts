import { z } from "zod";
import type { CompressedState } from "../../ha/types.js";
import type { SimEvent } from "../bus.js";
import { compressState, diffStates } from "../state.js";
import { defineCommand, type Command } from "./command.js";

/**
 * `subscribe_entities`: a compressed snapshot, then one diff per change. The
 * diff of a change is serialised once and shared by every subscriber.
 */
export const subscribeEntities: Command = defineCommand(
  "subscribe_entities",
  z.object({ entity_ids: z.array(z.string()).optional() }),
  (conn, msg) => {
    const { id } = msg;
    const home = conn.ctx.home;
    const filter = msg.entity_ids ? new Set(msg.entity_ids) : undefined;
    const unsub = home.bus.listen("state_changed", (event) => {
      const change = event.change;
      if (!change || (filter && !filter.has(change.entityId))) return;
      conn.sendEventJson(id, entitiesDiffJson(event));
    });
    conn.addSubscription(id, unsub);
    conn.sendResult(id, null);
    const added: Record<string, CompressedState> = {};
    for (const s of home.records()) if (!filter || filter.has(s.wire.entity_id)) added[s.wire.entity_id] = compressState(s);
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
