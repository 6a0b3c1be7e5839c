import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { OAuthCaller } from "../oauth/index.js";
import { CheckBudget } from "./auth/index.js";

export interface OAuthCallersOptions {
  /** Requests one address may make per minute for one client (and for requests that name none). */
  perMinute: number;
  /** Reverse proxies whose X-Forwarded-For names the real caller; without them, the peer's address is the caller's. */
  trustedProxies: readonly string[];
  now: () => number;
}

const bare = (address: string | undefined): string => (address ?? "unknown").replace(/^::ffff:/, "");

/**
 * Budgets for the sign-in routes. Each caller address has one per client
 * (`perMinute`), so a busy or broken client uses up only its own; the
 * address as a whole has four times that, so minting client ids does not
 * buy more; and all together ten times, so a flood reaches Home Assistant a
 * bounded number of times. Behind a trusted reverse proxy the address is
 * the one the proxy forwarded for, not the proxy's own, which every client
 * would otherwise share.
 */
export function createOAuthCallers(o: OAuthCallersOptions) {
  const trusted = new Set(o.trustedProxies.map(bare));
  const addresses = new CheckBudget(o.now, { perAddressPerMinute: o.perMinute * 4, globalPerMinute: o.perMinute * 10 });
  // The address-wide and global limits above bound this one's sum; its own global limit is never the binding one.
  const clients = new CheckBudget(o.now, { perAddressPerMinute: o.perMinute, globalPerMinute: Number.MAX_SAFE_INTEGER });

  function addressOf(req: IncomingMessage): string {
    const peer = bare(req.socket.remoteAddress);
    if (!trusted.has(peer)) return peer;
    const forwarded = req.headers["x-forwarded-for"];
    // The last entry is the one the trusted proxy added itself; earlier ones are the client's own say.
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").at(-1)?.trim() ?? "";
    return isIP(bare(last)) ? bare(last) : peer;
  }

  return {
    /** The caller of a sign-in request, or how long its address must wait first. */
    callerOf(req: IncomingMessage): { ok: true; caller: OAuthCaller } | { ok: false; retryAfterMs: number } {
      const address = addressOf(req);
      const taken = addresses.take(address);
      if (!taken.ok) return taken;
      return { ok: true, caller: { address, spend: (clientId) => clients.take(`${address} ${clientId ?? ""}`) } };
    },
  };
}
