import { hash } from "node:crypto";
import type { Logger } from "pino";
import type { Clock, Principal } from "../../shared/index.js";
import { describeError } from "../../shared/index.js";
import type { CreateWebSocket } from "../../ha/index.js";
import { fetchCurrentUser } from "./current-user.js";
import { CheckBudget, type CheckBudgetOptions } from "./check-budget.js";
import { AuthUnavailableError, TooManyTokenChecksError } from "./errors.js";
import { couldBeHaToken } from "./token-shape.js";

/** A token HA accepted within this long is "known": re-checking it spends no budget. */
const KNOWN_FOR_MS = 24 * 3_600_000;

export interface TokenVerifier {
  /**
   * The principal for a token Home Assistant accepts, or undefined when it
   * rejects it. `from` is the caller's address, whose budget of checks of
   * unknown tokens this spends; past it, TooManyTokenChecksError.
   */
  verify(token: string, from?: string): Promise<Principal | undefined>;
}

export interface TokenVerifierOptions {
  /** Core's REST base (`…/api`): user tokens are valid when `GET {coreApiUrl}/` answers 200. */
  coreApiUrl: string;
  /** Add-on mode: other add-ons' tokens are valid when the Supervisor's Core proxy accepts them. */
  supervisorApiUrl?: string;
  /** Add-on mode: where `GET /addons/self/info` tells which add-on a Supervisor token belongs to. */
  supervisorUrl?: string;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  createWebSocket?: CreateWebSocket;
  /** How long an accepted token stays accepted without asking HA again. */
  acceptedTtlMs?: number;
  /** How long a rejected token stays rejected; short, so a newly created token works quickly. */
  rejectedTtlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
  /** Refuse, without asking HA, strings that cannot be HA tokens. Off in demo mode, where any HA_TOKEN may be the demo's. */
  checkShape?: boolean;
  /** Limits on checking tokens HA never accepted; see CheckBudget. */
  budget?: CheckBudgetOptions;
}

interface CacheEntry {
  principal: Principal | undefined;
  expiresAt: number;
}

/**
 * Checks bearer tokens with Home Assistant and remembers the answer briefly.
 * The cache is keyed by a SHA-256 of the token, so the token itself is never
 * kept, and concurrent checks of one token share a single request.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const doFetch = options.fetch ?? fetch;
  const acceptedTtl = options.acceptedTtlMs ?? 60_000;
  const rejectedTtl = options.rejectedTtlMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const cache = new Map<string, CacheEntry>();
  const inflight = new Map<string, Promise<Principal | undefined>>();
  const budget = new CheckBudget(() => options.clock.now(), options.budget);
  /** Hashes of tokens HA accepted, and when: their re-checks are never refused. */
  const known = new Map<string, number>();

  async function accepts(apiUrl: string, token: string): Promise<boolean> {
    let response: Response;
    try {
      response = await doFetch(`${apiUrl}/`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new AuthUnavailableError(`${apiUrl} is unreachable: ${describeError(err)}`, { cause: err });
    }
    await response.body?.cancel();
    if (response.status === 200) return true;
    if (response.status === 401) return false;
    // A 403 is not about the token: HA's ban middleware answers it to every request from a banned address.
    if (response.status === 403) throw new AuthUnavailableError(`${apiUrl} answered 403: Home Assistant has probably banned this add-on's address after failed logins (ip_bans.yaml, http.unban)`);
    throw new AuthUnavailableError(`${apiUrl} answered HTTP ${response.status}`);
  }

  async function userPrincipal(token: string): Promise<Principal> {
    const wsUrl = `${options.coreApiUrl.replace(/^http/, "ws")}/websocket`;
    try {
      const user = await fetchCurrentUser({ wsUrl, token, timeoutMs, createWebSocket: options.createWebSocket });
      return { id: user.id, name: user.name, kind: "user", isAdmin: user.is_admin };
    } catch (err) {
      throw new AuthUnavailableError(`could not read the token's user: ${describeError(err)}`, { cause: err });
    }
  }

  async function addonPrincipal(token: string, key: string): Promise<Principal> {
    // The slug names the add-on; without it, a stable hash still keeps its sessions its own.
    let slug = `token-${key.slice(0, 12)}`;
    if (options.supervisorUrl) {
      try {
        const response = await doFetch(`${options.supervisorUrl}/addons/self/info`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
        const body = (await response.json()) as { data?: { slug?: string } };
        if (response.ok && body.data?.slug) slug = body.data.slug;
      } catch (err) {
        options.logger.debug({ err: describeError(err) }, "could not read the calling add-on's slug");
      }
    }
    return { id: `addon:${slug}`, name: slug, kind: "addon", isAdmin: false };
  }

  async function check(token: string, key: string): Promise<Principal | undefined> {
    if (await accepts(options.coreApiUrl, token)) return userPrincipal(token);
    if (options.supervisorApiUrl && (await accepts(options.supervisorApiUrl, token))) return addonPrincipal(token, key);
    return undefined;
  }

  function remember(key: string, principal: Principal | undefined): void {
    if (cache.size >= maxEntries) {
      // Maps iterate in insertion order, so the first key is the oldest entry.
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(key, { principal, expiresAt: options.clock.now() + (principal ? acceptedTtl : rejectedTtl) });
    if (principal) {
      known.delete(key);
      if (known.size >= maxEntries) known.delete(known.keys().next().value!);
      known.set(key, options.clock.now());
    }
  }

  function isKnown(key: string): boolean {
    const at = known.get(key);
    return at !== undefined && options.clock.now() - at < KNOWN_FOR_MS;
  }

  return {
    async verify(token, from = "unknown") {
      const key = hash("sha256", token, "hex");
      const hit = cache.get(key);
      if (hit && hit.expiresAt > options.clock.now()) return hit.principal;
      cache.delete(key);
      if (options.checkShape !== false && !couldBeHaToken(token)) return undefined;
      let pending = inflight.get(key);
      if (!pending) {
        if (!isKnown(key)) {
          const allowed = budget.take(from);
          if (!allowed.ok) {
            options.logger.warn({ from }, "too many unknown tokens; refusing to ask Home Assistant about more for now");
            throw new TooManyTokenChecksError(allowed.retryAfterMs);
          }
        }
        pending = check(token, key)
          .then((principal) => {
            remember(key, principal);
            if (!principal) options.logger.info("a caller's token was rejected by Home Assistant");
            return principal;
          })
          .finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    },
  };
}
