import type { Clock, Logger, Principal } from "../shared/index.js";
import { haAccepts, refreshHaAccess, type HaAuthOptions } from "./ha-auth.js";
import { HaUnreachableError } from "./ha-unreachable.js";

/** What the guard needs of a grant: whose it is, and HA's refresh token with the client id HA issued it to. */
export interface GuardedGrant {
  id: string;
  principal: { id: string; name: string; isAdmin: boolean };
  haRefreshToken: string;
  haClientId: string;
}

export interface GuardedGrants {
  authenticate(accessToken: string): GuardedGrant | undefined;
  remove(grantId: string): Promise<unknown>;
}

export interface GrantGuardOptions {
  grants: GuardedGrants;
  ha: HaAuthOptions;
  clock: Clock;
  logger: Logger;
  /** How long HA's yes is trusted before it is asked again; a grant HA dropped stops working within this. Default 30 s. */
  recheckMs?: number;
}

interface HaSession {
  accessToken: string | undefined;
  accessExpiresAt: number;
  checkedAt: number;
}

/** Renew HA's access token this long before it expires, so a request never rides on one about to lapse. */
const RENEW_EARLY_MS = 60_000;

/**
 * Turns one of the front's access tokens into the HA user it acts for, as
 * long as Home Assistant still honours the sign-in behind it. HA's own
 * access token is kept in memory and refreshed when needed; when HA answers
 * the grant's refresh token with `invalid_grant` (the user removed the login
 * in their profile), the grant is deleted and the token stops working,
 * within `recheckMs`. Anything else HA answers (a ban's 403, a 5xx, nothing)
 * throws HaUnreachableError and revokes nothing: the request gets 503, and
 * the grant works again once HA does.
 */
export function createGrantGuard(options: GrantGuardOptions) {
  const recheckMs = options.recheckMs ?? 30_000;
  const sessions = new Map<string, HaSession>();
  const inflight = new Map<string, Promise<boolean>>();

  async function drop(grant: GuardedGrant, reason: string): Promise<false> {
    sessions.delete(grant.id);
    await options.grants.remove(grant.id);
    options.logger.info({ user: grant.principal.name, reason }, "a sign-in ended: Home Assistant no longer accepts it");
    return false;
  }

  async function renew(grant: GuardedGrant, session: HaSession): Promise<boolean> {
    const answer = await refreshHaAccess({ ...options.ha, clientId: grant.haClientId, refreshToken: grant.haRefreshToken });
    if ("ended" in answer) return drop(grant, answer.reason);
    session.accessToken = answer.accessToken;
    session.accessExpiresAt = options.clock.now() + answer.expiresInSeconds * 1000;
    return true;
  }

  async function confirm(grant: GuardedGrant): Promise<boolean> {
    let session = sessions.get(grant.id);
    if (!session) sessions.set(grant.id, (session = { accessToken: undefined, accessExpiresAt: 0, checkedAt: 0 }));
    const now = options.clock.now();
    if (!session.accessToken || session.accessExpiresAt - RENEW_EARLY_MS <= now) {
      if (!(await renew(grant, session))) return false;
    }
    // An access token HA just issued may still be one whose login was removed a moment later: ask.
    if (!(await haAccepts({ ...options.ha, accessToken: session.accessToken! }))) {
      if (!(await renew(grant, session))) return false;
      // HA refused the token it just issued: odd, but not HA saying the login is gone. The next request asks again.
      if (!(await haAccepts({ ...options.ha, accessToken: session.accessToken! }))) throw new HaUnreachableError("Home Assistant refused an access token it had just issued");
    }
    session.checkedAt = options.clock.now();
    return true;
  }

  return {
    /**
     * The principal for an access token the front issued, or undefined when it
     * is unknown, expired or HA ended the sign-in. The grant's resource (the
     * MCP URL it was issued for) is not compared with the URL of each request:
     * the token is opaque and only this program's grant store knows it, so no
     * other server can accept it, and every URL that reaches this listener is
     * one of HA Agent's own names (the request guard refuses others). A
     * client that signed in at http://192.168.1.5:8808/mcp may use the same
     * server as http://homeassistant.local:8808/mcp; refusing it would protect
     * nothing.
     */
    async principalFor(accessToken: string): Promise<Principal | undefined> {
      const grant = options.grants.authenticate(accessToken);
      if (!grant) return undefined;
      const session = sessions.get(grant.id);
      const fresh = session && options.clock.now() - session.checkedAt < recheckMs;
      if (!fresh) {
        // Concurrent requests of one grant share one round trip to HA.
        let pending = inflight.get(grant.id);
        if (!pending) {
          pending = confirm(grant).finally(() => inflight.delete(grant.id));
          inflight.set(grant.id, pending);
        }
        if (!(await pending)) return undefined;
      }
      return { id: grant.principal.id, name: grant.principal.name, kind: "user", isAdmin: grant.principal.isAdmin };
    },
    /** Starts a new grant with the access token HA issued at its sign-in a moment ago: valid, and checked just now. */
    seed(grantId: string, access: { token: string; expiresAt: number }): void {
      sessions.set(grantId, { accessToken: access.token, accessExpiresAt: access.expiresAt, checkedAt: options.clock.now() });
    },
    /** Forgets HA's access token of a grant that was removed elsewhere (revoked, rotated away). */
    forget(grantId: string): void {
      sessions.delete(grantId);
    },
  };
}

export type GrantGuard = ReturnType<typeof createGrantGuard>;
