import type { z } from "zod";
import type { Clock, Logger } from "../../shared/index.js";
import { describeError } from "../../shared/index.js";
import { idGenerator } from "../../store/index.js";
import { OAuthError } from "../errors.js";
import { newToken, tokenHash } from "../token-hash.js";
import { grantsToEvict } from "./caps.js";
import { grantsDir, loadGrants, saveGrants } from "./grants-file.js";
import { GrantLimitsSchema, LAST_USED_SAVE_MS, type GrantLimits } from "./options.js";
import {
  ACCESS_TOKENS_KEPT,
  GrantSchema,
  USED_REFRESH_KEPT,
  summarizeGrant,
  type Grant,
  type GrantSummary,
  type IssuedToken,
  type TokenResponse,
} from "./schema.js";
import { GrantIndex } from "./token-index.js";

export const NewGrantSchema = GrantSchema.pick({ clientId: true, clientName: true, principal: true, resource: true, scope: true, haRefreshToken: true, haClientId: true });
export type NewGrant = z.input<typeof NewGrantSchema>;

export type GrantStoreOptions = GrantLimits & {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** Told of every grant that ends here (revoked, reused, expired, evicted, removed), after it is gone from disk: to end its login in Home Assistant too. */
  onEnded?: (grant: Grant) => void;
};

/** What a sign-in or a refresh hands the client, and the grant it belongs to. */
export interface IssuedGrant {
  grant: Grant;
  tokens: TokenResponse;
}

export interface GrantStore {
  /** Records a completed sign-in and issues its first access and refresh tokens. */
  create(input: NewGrant): Promise<IssuedGrant>;
  /** The grant an access token belongs to, or undefined when unknown, revoked or expired. Memory only: no disk read. */
  authenticate(accessToken: string): Grant | undefined;
  /**
   * Rotates a refresh token: new access and refresh tokens, the old refresh
   * token marked used. A used one presented again ends the whole grant.
   * Throws OAuthError `invalid_grant` or `invalid_target`.
   */
  refresh(input: { refreshToken: string; clientId: string; resource?: string }): Promise<IssuedGrant>;
  /**
   * RFC 7009: an access token stops working alone, a refresh token ends its
   * grant. Unknown tokens, and tokens of another client when `clientId` is
   * given, change nothing (and say so only in the result).
   */
  revoke(token: string, options?: { clientId?: string }): Promise<"access_token" | "grant" | "none">;
  /** Ends a grant (e.g. Home Assistant refused its refresh token); false when there was none. */
  remove(grantId: string): Promise<boolean>;
  get(grantId: string): Grant | undefined;
  /** Every grant without its secrets, oldest first, for the console. */
  list(): GrantSummary[];
  /** Writes what is only in memory (`lastUsedAt`); call before the process exits. */
  flush(): Promise<void>;
}

/**
 * The durable record of OAuth sign-ins (`<dataDir>/oauth/grants.json`).
 * Every change is written whole and fsynced before it takes effect, one at a
 * time, so two refreshes of one token can never both succeed.
 */
export async function openGrantStore(options: GrantStoreOptions): Promise<GrantStore> {
  const { clock, logger } = options;
  const limits = GrantLimitsSchema.parse({
    accessTtlSeconds: options.accessTtlSeconds,
    refreshTtlSeconds: options.refreshTtlSeconds,
    maxGrants: options.maxGrants,
    maxGrantsPerPrincipal: options.maxGrantsPerPrincipal,
  });
  const dir = grantsDir(options.dataDir);
  const newId = idGenerator(clock);
  const index = new GrantIndex();
  for (const grant of await loadGrants({ dir, now: clock.now(), logger })) {
    if (!isDead(grant, clock.now())) index.put(grant);
  }
  let lastSavedAt = clock.now();
  let saveQueued = false;
  let tail: Promise<unknown> = Promise.resolve();

  /** Runs writes one after another: each sees the state the previous one left. */
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };

  const save = async (grants: Grant[]): Promise<void> => {
    const mark = index.saving();
    await saveGrants({ dir, grants });
    index.saved(mark);
    lastSavedAt = clock.now();
  };

  /** Writes the state with `put` added and `remove` gone (and dead grants swept), then makes it current. */
  const commit = async (change: { put?: Grant; remove?: string[] }): Promise<void> => {
    const now = clock.now();
    const gone = new Set([...(change.remove ?? []), ...index.all().filter((grant) => isDead(grant, now)).map((grant) => grant.id)]);
    const next = index.all().filter((grant) => !gone.has(grant.id) && grant.id !== change.put?.id);
    const ending = [...gone].map((id) => index.get(id)).filter((grant) => grant !== undefined);
    await save(change.put ? [...next, change.put] : next);
    for (const id of gone) index.remove(id);
    if (change.put) index.put(change.put);
    for (const grant of ending) options.onEnded?.(grant);
  };

  /** Saves a removal already made in memory; a failed write is logged, as the grant is gone here either way. */
  const saveRemoval = async (): Promise<void> => {
    await commit({}).catch((err: unknown) => {
      logger.error({ err: describeError(err) }, "OAuth grants: a revoked sign-in could not be written to disk; it stays revoked until the add-on restarts");
    });
  };

  const issue = (grant: Omit<Grant, "refreshToken" | "accessTokens">, previous: IssuedToken[], now: number) => {
    const accessToken = newToken("at");
    const refreshToken = newToken("rt");
    const live = previous.filter((token) => token.expiresAt > now);
    const next: Grant = {
      ...grant,
      refreshToken: { hash: tokenHash(refreshToken), expiresAt: now + limits.refreshTtlSeconds * 1000 },
      accessTokens: [...live, { hash: tokenHash(accessToken), expiresAt: now + limits.accessTtlSeconds * 1000 }].slice(-ACCESS_TOKENS_KEPT),
    };
    const tokens: TokenResponse = {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: limits.accessTtlSeconds,
      token_type: "Bearer",
      scope: grant.scope,
    };
    return { grant: next, tokens };
  };

  const logFields = (grant: Grant) => ({ grantId: grant.id, clientId: grant.clientId, client: grant.clientName, user: grant.principal.name });

  return {
    create: (input) =>
      serial(async () => {
        const fields = NewGrantSchema.parse(input);
        const now = clock.now();
        const evict = grantsToEvict({
          entries: index
            .all()
            .filter((grant) => !isDead(grant, now))
            .map((grant) => ({ id: grant.id, principalId: grant.principal.id, lastUsedAt: grant.lastUsedAt })),
          principalId: fields.principal.id,
          maxGrants: limits.maxGrants,
          maxPerPrincipal: limits.maxGrantsPerPrincipal,
        });
        const issued = issue({ ...fields, id: newId(), createdAt: now, lastUsedAt: now, usedRefreshHashes: [] }, [], now);
        await commit({ put: issued.grant, remove: evict });
        if (evict.length > 0) logger.info({ evicted: evict.length, user: fields.principal.name }, "OAuth grants: the least recently used sign-ins were ended to stay within the cap");
        logger.info(logFields(issued.grant), "OAuth grant created");
        return issued;
      }),

    authenticate: (accessToken) => {
      const now = clock.now();
      const grant = index.byAccessToken(tokenHash(accessToken), now);
      if (!grant) return undefined;
      index.touch(grant.id, now);
      if (!saveQueued && now - lastSavedAt >= LAST_USED_SAVE_MS) {
        saveQueued = true;
        void serial(async () => {
          saveQueued = false;
          if (index.dirty) await save(index.all());
        }).catch((err: unknown) => logger.warn({ err: describeError(err) }, "OAuth grants: last-use times could not be written; they are written with the next change"));
      }
      return index.get(grant.id);
    },

    refresh: ({ refreshToken, clientId, resource }) =>
      serial(async () => {
        const now = clock.now();
        const hash = tokenHash(refreshToken);
        const reused = index.byUsedRefreshToken(hash);
        if (reused) {
          index.remove(reused.id);
          options.onEnded?.(reused);
          logger.warn(logFields(reused), "OAuth grant ended: a refresh token was used a second time, which means it was copied; the client must sign in again");
          await saveRemoval();
          throw new OAuthError("invalid_grant", "This refresh token was already used once, so the sign-in it belongs to was ended to protect the account. Sign in again.");
        }
        const grant = index.byRefreshToken(hash);
        if (!grant) throw new OAuthError("invalid_grant", "The refresh token is unknown, revoked or expired. Sign in again.");
        if (grant.clientId !== clientId) throw new OAuthError("invalid_grant", "The refresh token was issued to another client. Use the client_id that signed in.");
        if (grant.refreshToken.expiresAt <= now) {
          index.remove(grant.id);
          options.onEnded?.(grant);
          await saveRemoval();
          throw new OAuthError("invalid_grant", "The refresh token has expired. Sign in again.");
        }
        if (resource !== undefined && resource !== grant.resource) {
          throw new OAuthError("invalid_target", `This sign-in is for ${grant.resource}; ask for that resource, or sign in again for another.`);
        }
        const issued = issue(
          { ...grant, lastUsedAt: now, usedRefreshHashes: [...grant.usedRefreshHashes, grant.refreshToken.hash].slice(-USED_REFRESH_KEPT) },
          grant.accessTokens,
          now,
        );
        await commit({ put: issued.grant });
        return issued;
      }),

    revoke: (token, revokeOptions) =>
      serial(async () => {
        const hash = tokenHash(token);
        const now = clock.now();
        const byAccess = index.byAccessToken(hash, now);
        const byRefresh = index.byRefreshToken(hash);
        const grant = byAccess ?? byRefresh;
        if (!grant || (revokeOptions?.clientId !== undefined && revokeOptions.clientId !== grant.clientId)) return "none";
        if (byRefresh) {
          await commit({ remove: [grant.id] });
          logger.info(logFields(grant), "OAuth grant ended: the client revoked its refresh token");
          return "grant";
        }
        await commit({ put: { ...grant, accessTokens: grant.accessTokens.filter((entry) => entry.hash !== hash) } });
        return "access_token";
      }),

    remove: (grantId) =>
      serial(async () => {
        const grant = index.get(grantId);
        if (!grant) return false;
        await commit({ remove: [grantId] });
        logger.info(logFields(grant), "OAuth grant ended");
        return true;
      }),

    get: (grantId) => index.get(grantId),
    list: () => index.all().map(summarizeGrant),
    flush: () =>
      serial(async () => {
        if (index.dirty) await save(index.all());
      }),
  };
}

/** A grant nothing can use any more: its refresh token and every access token have expired. */
function isDead(grant: Grant, now: number): boolean {
  return grant.refreshToken.expiresAt <= now && grant.accessTokens.every((token) => token.expiresAt <= now);
}
