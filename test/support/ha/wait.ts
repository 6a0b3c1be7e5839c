import type { ConnectionStatus, HaClient } from "../../../src/ha/types.js";

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
