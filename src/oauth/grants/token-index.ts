import type { Grant } from "./schema.js";

/**
 * The grants in memory, found by the hash of any of their tokens, so a
 * request's bearer check is a map lookup. Last-use times are kept apart
 * from the grants: they change on every request and reach the disk lazily.
 */
export class GrantIndex {
  readonly #grants = new Map<string, Grant>();
  readonly #lastUsed = new Map<string, number>();
  readonly #access = new Map<string, string>();
  readonly #refresh = new Map<string, string>();
  readonly #usedRefresh = new Map<string, string>();
  #touches = 0;
  #savedTouches = 0;

  /** Adds a grant, or replaces the one with its id (and forgets that one's tokens). */
  put(grant: Grant): void {
    this.#unindex(grant.id);
    this.#grants.set(grant.id, grant);
    for (const token of grant.accessTokens) this.#access.set(token.hash, grant.id);
    this.#refresh.set(grant.refreshToken.hash, grant.id);
    for (const hash of grant.usedRefreshHashes) this.#usedRefresh.set(hash, grant.id);
  }

  remove(id: string): void {
    this.#unindex(id);
    this.#grants.delete(id);
    this.#lastUsed.delete(id);
  }

  get(id: string): Grant | undefined {
    const grant = this.#grants.get(id);
    if (!grant) return undefined;
    const touched = this.#lastUsed.get(id);
    return touched !== undefined && touched > grant.lastUsedAt ? { ...grant, lastUsedAt: touched } : grant;
  }

  /** Every grant with its latest use, oldest first. */
  all(): Grant[] {
    return [...this.#grants.keys()].map((id) => this.get(id) as Grant).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The grant of a live access token; an expired one finds nothing. */
  byAccessToken(hash: string, now: number): Grant | undefined {
    const grant = this.get(this.#access.get(hash) ?? "");
    const token = grant?.accessTokens.find((entry) => entry.hash === hash);
    return token && token.expiresAt > now ? grant : undefined;
  }

  /** The grant whose current refresh token this is (expired or not). */
  byRefreshToken(hash: string): Grant | undefined {
    return this.get(this.#refresh.get(hash) ?? "");
  }

  /** The grant that already rotated this refresh token away. */
  byUsedRefreshToken(hash: string): Grant | undefined {
    return this.get(this.#usedRefresh.get(hash) ?? "");
  }

  touch(id: string, now: number): void {
    this.#lastUsed.set(id, now);
    this.#touches += 1;
  }

  /** Whether a use happened since the last save began. */
  get dirty(): boolean {
    return this.#touches !== this.#savedTouches;
  }

  /** Call as a save begins; hand the result to `saved` once it succeeded. */
  saving(): number {
    return this.#touches;
  }

  saved(mark: number): void {
    this.#savedTouches = mark;
  }

  #unindex(id: string): void {
    const grant = this.#grants.get(id);
    if (!grant) return;
    for (const token of grant.accessTokens) this.#access.delete(token.hash);
    this.#refresh.delete(grant.refreshToken.hash);
    for (const hash of grant.usedRefreshHashes) this.#usedRefresh.delete(hash);
  }
}
