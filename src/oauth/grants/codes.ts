import { z } from "zod";
import type { Clock } from "../../shared/index.js";
import { OAuthError } from "../errors.js";
import { newToken, tokenHash } from "../token-hash.js";
import { GrantPrincipalSchema } from "./schema.js";

/** What /authorize hands the token endpoint through a code. */
export const CodePayloadSchema = z.object({
  clientId: z.string().min(1),
  clientName: z.string(),
  redirectUri: z.string().min(1),
  codeChallenge: z.string().min(1),
  resource: z.string().min(1),
  scope: z.string(),
  principal: GrantPrincipalSchema,
  haRefreshToken: z.string().min(1),
  /** The client id HA issued the refresh token to; the grant keeps it for HA's refresh grant. */
  haClientId: z.string().min(1),
  /** HA's access token from the sign-in, so the first request need not fetch another; never stored in the grant. */
  haAccess: z.object({ token: z.string().min(1), expiresAt: z.number().int() }).optional(),
});
export type CodePayload = z.infer<typeof CodePayloadSchema>;

/** OAuth 2.1 §4.1.2 asks for a short life; 60 s is ample for a redirect. */
export const CODE_TTL_MS = 60_000;
/** Codes issued and not yet redeemed or expired; a sign-in flood past it is refused, not stored. */
export const MAX_OUTSTANDING_CODES = 1000;
/** How long a redeemed code is remembered, so a second use can end what the first produced. */
const REDEEMED_MEMORY_MS = 10 * CODE_TTL_MS;

export type CodeRedemption<T> =
  | { ok: true; payload: T }
  /** `grantId`: what the first redeem produced (see `markRedeemed`); end it, per OAuth 2.1 §4.1.3. */
  | { ok: false; reason: "reused"; grantId?: string }
  | { ok: false; reason: "unknown" | "expired" };

export interface Codes<T> {
  /** A new one-time code for `payload`. Throws OAuthError `temporarily_unavailable` when too many are outstanding. */
  issue(payload: T): string;
  /** The payload, once; a second redeem reports `reused`. */
  redeem(code: string): CodeRedemption<T>;
  /** Records the grant a redeemed code produced, so a reuse of the code can end it. */
  markRedeemed(code: string, grantId: string): void;
  /** Outstanding codes (not redeemed, not expired). */
  readonly size: number;
}

type Entry<T> = { state: "issued"; payload: T; expiresAt: number } | { state: "redeemed"; grantId?: string; forgetAt: number };

/**
 * Authorization codes, in memory only: a restart merely makes a sign-in in
 * progress start over. Kept by hash, like every token issued; the payload
 * (which holds an HA refresh token) is dropped as soon as it is redeemed.
 */
export function createCodes<T = CodePayload>(options: { clock: Clock; ttlMs?: number; maxOutstanding?: number }): Codes<T> {
  const { clock } = options;
  const ttlMs = options.ttlMs ?? CODE_TTL_MS;
  const maxOutstanding = options.maxOutstanding ?? MAX_OUTSTANDING_CODES;
  const entries = new Map<string, Entry<T>>();
  let outstanding = 0;

  const sweep = (now: number) => {
    for (const [hash, entry] of entries) {
      if (entry.state === "issued" && entry.expiresAt <= now) {
        entries.delete(hash);
        outstanding -= 1;
      } else if (entry.state === "redeemed" && entry.forgetAt <= now) {
        entries.delete(hash);
      }
    }
  };

  /** Redeemed codes are remembered only up to a bound too; past it the oldest memory goes (Map order is issue order). */
  const forgetOldestRedeemed = () => {
    if (entries.size - outstanding <= maxOutstanding) return;
    for (const [hash, entry] of entries) {
      if (entry.state === "redeemed") {
        entries.delete(hash);
        return;
      }
    }
  };

  return {
    issue: (payload) => {
      const now = clock.now();
      sweep(now);
      if (outstanding >= maxOutstanding) {
        throw new OAuthError("temporarily_unavailable", "Too many sign-ins are in progress; wait a minute and sign in again.", 503);
      }
      const code = newToken("code");
      entries.set(tokenHash(code), { state: "issued", payload, expiresAt: now + ttlMs });
      outstanding += 1;
      return code;
    },
    redeem: (code) => {
      const now = clock.now();
      const hash = tokenHash(code);
      const entry = entries.get(hash);
      if (!entry) return { ok: false, reason: "unknown" };
      if (entry.state === "redeemed") return entry.grantId === undefined ? { ok: false, reason: "reused" } : { ok: false, reason: "reused", grantId: entry.grantId };
      outstanding -= 1;
      if (entry.expiresAt <= now) {
        entries.delete(hash);
        return { ok: false, reason: "expired" };
      }
      entries.set(hash, { state: "redeemed", forgetAt: now + REDEEMED_MEMORY_MS });
      forgetOldestRedeemed();
      return { ok: true, payload: entry.payload };
    },
    markRedeemed: (code, grantId) => {
      const hash = tokenHash(code);
      const entry = entries.get(hash);
      if (entry?.state === "redeemed") entries.set(hash, { ...entry, grantId });
    },
    get size() {
      return outstanding;
    },
  };
}
