import { randomBytes } from "node:crypto";
import type { ConsentRequest } from "./consent-request.js";

/** How long a person has to sign in on HA's page. */
export const PENDING_TTL_MS = 10 * 60_000;

/** Sign-ins waiting for HA's login at once: in all, of one client, and from one address. */
export const PENDING_LIMITS = { total: 1_000, perClient: 100, perAddress: 10 } as const;

/** A consented request waiting for Home Assistant's login to come back. */
export interface PendingLogin {
  request: ConsentRequest;
  /** The hash of the login cookie of the browser that allowed it: only that browser may finish it. */
  browser: string;
  /** Who allowed it (the address the budget uses), for the per-address cap. */
  address: string;
  expiresAt: number;
}

export type AddResult = { id: string } | { full: "total" | "client" | "address" };

/**
 * Consented requests waiting for Home Assistant's login to come back, keyed
 * by the `state` the add-on sent HA. Single use, in memory: a restart in the
 * middle of a sign-in only means signing in again. The table is bounded by
 * refusing newcomers, never by evicting anybody's sign-in in progress: one
 * client or one address can fill only its own share.
 */
export function createPendingLogins(now: () => number, limits: { total: number; perClient: number; perAddress: number } = PENDING_LIMITS) {
  const pending = new Map<string, PendingLogin>();
  const sweep = () => {
    for (const [id, p] of pending) if (p.expiresAt <= now()) pending.delete(id);
  };
  const live = (id: string): PendingLogin | undefined => {
    const p = pending.get(id);
    return p && p.expiresAt > now() ? p : undefined;
  };
  return {
    add(login: Omit<PendingLogin, "expiresAt">): AddResult {
      sweep();
      if (pending.size >= limits.total) return { full: "total" };
      let ofClient = 0;
      let ofAddress = 0;
      for (const p of pending.values()) {
        if (p.request.clientId === login.request.clientId) ofClient++;
        if (p.address === login.address) ofAddress++;
      }
      if (ofAddress >= limits.perAddress) return { full: "address" };
      if (ofClient >= limits.perClient) return { full: "client" };
      const id = randomBytes(24).toString("base64url");
      pending.set(id, { ...login, expiresAt: now() + PENDING_TTL_MS });
      return { id };
    },
    /** The pending sign-in, left in place. */
    peek: live,
    /** The pending sign-in, removed: a `state` finishes at most one sign-in, whatever comes of it. */
    take(id: string): PendingLogin | undefined {
      const p = live(id);
      pending.delete(id);
      return p;
    },
  };
}

export type PendingLogins = ReturnType<typeof createPendingLogins>;
