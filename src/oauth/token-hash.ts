import { createHash, randomBytes } from "node:crypto";

/** The prefix of every token the OAuth front issues: the bearer check tells them from HA's tokens by it. */
export const ISSUED_TOKEN_PREFIX = "hao_";

/** A new random token of the given kind (`at` access, `rt` refresh, `code`), 256 bits, URL-safe. */
export function newToken(kind: "at" | "rt" | "code"): string {
  return `${ISSUED_TOKEN_PREFIX}${kind}_${randomBytes(32).toString("base64url")}`;
}

/** What is stored and compared in place of a token: its SHA-256, so a copy of the store grants nothing. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
