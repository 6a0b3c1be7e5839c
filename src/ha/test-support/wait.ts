import type { ConnectionStatus, EntitiesMessage, HaClient } from "../types.js";

/** Resolves when `check` passes; fails with `what` after `timeoutMs` (a guard, not a timing assertion). */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Records every status a client goes through. */
export function recordStatuses(client: HaClient): ConnectionStatus[] {
  const seen: ConnectionStatus[] = [];
  client.onStatus((status) => seen.push(status));
  return seen;
}

/** Replays `subscribe_entities` messages into a plain state map, replacing it on each snapshot. */
export function entityMirror() {
  const states = new Map<string, string>();
  let snapshots = 0;
  return {
    states,
    snapshots: () => snapshots,
    apply(message: EntitiesMessage, snapshot: boolean) {
      if (snapshot) {
        states.clear();
        snapshots++;
      }
      for (const [id, entity] of Object.entries(message.a ?? {})) states.set(id, entity.s);
      for (const id of message.r ?? []) states.delete(id);
      for (const [id, diff] of Object.entries(message.c ?? {})) if (diff["+"]?.s !== undefined) states.set(id, diff["+"].s);
    },
  };
}
