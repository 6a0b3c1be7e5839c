import { SimulatorError } from "./errors.js";
import type { HomeModel } from "./home.js";

/** Changes made per macrotask, so queued frames get flushed between slices. */
const SLICE = 500;

/**
 * Fires `changes` state changes as fast as the event loop allows, cycling
 * through `entityIds` (default: every entity with a state). Numeric states
 * drift, on/off states flip, anything else gets a changing attribute.
 */
export async function burst(home: HomeModel, o: { changes: number; entityIds?: string[] }): Promise<void> {
  const ids = o.entityIds && o.entityIds.length > 0 ? o.entityIds : Array.from(home.records(), (s) => s.wire.entity_id);
  const unknown = ids.filter((id) => !home.record(id));
  if (unknown.length > 0) throw new SimulatorError("entity_not_found", `burst: no state for ${unknown.slice(0, 5).join(", ")}; pass entity ids the house has.`);
  if (ids.length === 0) return;
  let done = 0;
  let cursor = 0;
  while (done < o.changes) {
    const end = Math.min(o.changes, done + SLICE);
    for (; done < end; done++) {
      const entityId = ids[cursor++ % ids.length] as string;
      const current = home.record(entityId);
      // Removed by someone else during the burst: skip it.
      if (!current) continue;
      const context = home.newContext();
      const { state, attributes } = current.wire;
      const n = Number(state);
      if (state !== "" && Number.isFinite(n)) home.applyState(entityId, nextNumber(n, done), attributes, context);
      else if (state === "on" || state === "off") home.applyState(entityId, state === "on" ? "off" : "on", attributes, context);
      else home.applyState(entityId, state, { ...attributes, burst_seq: done }, context);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  // One more turn so the last slice's frames have been handed to the sockets.
  await new Promise<void>((resolve) => setImmediate(resolve));
}

function nextNumber(n: number, i: number): string {
  const step = i % 2 === 0 ? 0.1 : -0.05;
  return (Math.round((n + step) * 100) / 100).toString();
}
