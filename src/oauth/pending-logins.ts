import { randomBytes } from "node:crypto";
import type { ConsentRequest } from "./consent-request.js";

/** How long a person has to sign in on HA's page. */
const PENDING_TTL_MS = 10 * 60_000;
const MAX_PENDING = 1_000;

/**
 * Consented requests waiting for Home Assistant's login to come back, keyed
 * by the `state` the add-on sent HA. Single use, in memory: a restart in the
 * middle of a sign-in only means signing in again.
 */
export function createPendingLogins(now: () => number) {
  const pending = new Map<string, { request: ConsentRequest; expiresAt: number }>();
  const sweep = () => {
    for (const [id, p] of pending) if (p.expiresAt <= now()) pending.delete(id);
  };
  return {
    add(request: ConsentRequest): string {
      sweep();
      // The oldest goes first: a flood of abandoned sign-ins cannot grow memory.
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
      const id = randomBytes(24).toString("base64url");
      pending.set(id, { request, expiresAt: now() + PENDING_TTL_MS });
      return id;
    },
    take(id: string): ConsentRequest | undefined {
      const p = pending.get(id);
      pending.delete(id);
      return p && p.expiresAt > now() ? p.request : undefined;
    },
  };
}
