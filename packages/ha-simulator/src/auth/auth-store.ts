import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Clock } from "../common/index.js";
import type { SimUser, UserStore } from "../users.js";
import { AuthHttpFaults } from "./http-faults.js";
import { hasValidSignature, signJwt, unverifiedClaims } from "./jwt.js";

/** HA's ACCESS_TOKEN_EXPIRATION: 30 minutes. */
export const ACCESS_TOKEN_SECONDS = 1800;
/** HA keeps a login's code for 10 minutes (OAuth 4.2.1's recommended maximum). */
export const CODE_LIFETIME_MS = 10 * 60_000;
/** HA checks access tokens with 10 s of leeway. */
const LEEWAY_SECONDS = 10;

/** A refresh token as HA stores it: a login by one user for one client. */
export interface RefreshTokenRecord {
  id: string;
  token: string;
  jwtKey: string;
  clientId: string;
  userId: string;
  createdAt: number;
  lastUsedAt: number | undefined;
}

/** What a test or the profile page may see of a refresh token (never the token or its key). */
export type RefreshTokenInfo = Pick<RefreshTokenRecord, "id" | "clientId" | "userId" | "createdAt" | "lastUsedAt">;

/**
 * HA's login state: authorization codes, refresh tokens and the access
 * tokens signed with them. An access token is valid while its refresh token
 * exists, so removing a refresh token ends every access token it issued.
 */
export class SimAuth {
  /** Keyed by client id and code together: HA finds a code only with the exact client id it was made for. */
  private readonly codes = new Map<string, { userId: string; createdAt: number }>();
  private readonly refreshById = new Map<string, RefreshTokenRecord>();
  private readonly refreshByToken = new Map<string, RefreshTokenRecord>();
  private readonly removeListeners = new Set<(refreshTokenId: string) => void>();
  /** HA's ban of the caller's address, and the token endpoint's own failures. */
  readonly httpFaults = new AuthHttpFaults();

  constructor(
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  /** The user with this username and password (HA's local provider: the username is trimmed and case-folded). */
  checkPassword(username: string, password: string): SimUser | undefined {
    const wanted = username.trim().toLowerCase();
    const user = this.users.list().find((u) => u.username !== undefined && u.username.trim().toLowerCase() === wanted);
    if (!user?.password) return undefined;
    const a = Buffer.from(password);
    const b = Buffer.from(user.password);
    return a.length === b.length && timingSafeEqual(a, b) ? user : undefined;
  }

  /** A single-use code for `userId`, redeemable only with this exact `clientId`. */
  createCode(o: { clientId: string; userId: string }): string {
    const code = randomUUID().replaceAll("-", "");
    this.codes.set(codeKey(o.clientId, code), { userId: o.userId, createdAt: this.clock.now() });
    return code;
  }

  /**
   * The user a code was made for, removing the code. Like HA, a code asked for
   * with another client id is not found and so stays redeemable by its own client.
   */
  redeemCode(o: { clientId: string; code: string }): SimUser | undefined {
    const key = codeKey(o.clientId, o.code);
    const entry = this.codes.get(key);
    if (!entry) return undefined;
    this.codes.delete(key);
    if (this.clock.now() - entry.createdAt >= CODE_LIFETIME_MS) return undefined;
    return this.users.list().find((u) => u.id === entry.userId);
  }

  createRefreshToken(o: { userId: string; clientId: string }): RefreshTokenRecord {
    const record: RefreshTokenRecord = {
      id: randomUUID().replaceAll("-", ""),
      token: randomBytes(64).toString("hex"),
      jwtKey: randomBytes(64).toString("hex"),
      clientId: o.clientId,
      userId: o.userId,
      createdAt: this.clock.now(),
      lastUsedAt: undefined,
    };
    this.refreshById.set(record.id, record);
    this.refreshByToken.set(record.token, record);
    return record;
  }

  refreshTokenByToken(token: string): RefreshTokenRecord | undefined {
    return this.refreshByToken.get(token);
  }

  /** A 30-minute access token: a JWT naming the refresh token, signed with its key. */
  createAccessToken(record: RefreshTokenRecord): string {
    const now = Math.floor(this.clock.now() / 1000);
    record.lastUsedAt = this.clock.now();
    return signJwt({ iss: record.id, iat: now, exp: now + ACCESS_TOKEN_SECONDS }, record.jwtKey);
  }

  /** The refresh token behind a valid, unexpired access token. */
  refreshTokenForAccessToken(token: string): RefreshTokenRecord | undefined {
    const claims = unverifiedClaims(token);
    const record = typeof claims?.iss === "string" ? this.refreshById.get(claims.iss) : undefined;
    if (!record || !hasValidSignature(token, record.jwtKey)) return undefined;
    if (typeof claims?.exp !== "number" || claims.exp + LEEWAY_SECONDS <= this.clock.now() / 1000) return undefined;
    return record;
  }

  /** The user a token belongs to: a long-lived token first, then an access token from a login. */
  userForToken(token: string): SimUser | undefined {
    const longLived = this.users.byToken(token);
    if (longLived) return longLived;
    const record = this.refreshTokenForAccessToken(token);
    return record && this.users.list().find((u) => u.id === record.userId);
  }

  /** Removes a refresh token, as the profile page does; its access tokens stop working at once. */
  removeRefreshToken(id: string): boolean {
    const record = this.refreshById.get(id);
    if (!record) return false;
    this.refreshById.delete(id);
    this.refreshByToken.delete(record.token);
    for (const listener of this.removeListeners) listener(id);
    return true;
  }

  /** Refresh tokens from logins, oldest first, optionally of one user. */
  refreshTokens(userId?: string): RefreshTokenInfo[] {
    return [...this.refreshById.values()]
      .filter((r) => userId === undefined || r.userId === userId)
      .map(({ id, clientId, userId: owner, createdAt, lastUsedAt }) => ({ id, clientId, userId: owner, createdAt, lastUsedAt }));
  }

  /** The refresh token id an access token names, without checking it: enough to find the connections it opened. */
  refreshTokenIdOf(accessToken: string): string | undefined {
    const iss = unverifiedClaims(accessToken)?.iss;
    return typeof iss === "string" ? iss : undefined;
  }

  onRemove(listener: (refreshTokenId: string) => void): void {
    this.removeListeners.add(listener);
  }
}

function codeKey(clientId: string, code: string): string {
  return JSON.stringify([clientId, code]);
}
