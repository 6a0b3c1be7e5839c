import { z } from "zod";
import { PrincipalSchema } from "../../shared/index.js";

/** The version of `oauth/grants.json`; a file of another version is moved aside like a damaged one. */
export const GRANTS_FORMAT_VERSION = 1;

/** Refresh-token hashes kept per grant after use, so a replayed one is recognised as reuse. */
export const USED_REFRESH_KEPT = 20;

/** Live access tokens kept per grant; past it the oldest stops working (a client holds one at a time). */
export const ACCESS_TOKENS_KEPT = 5;

/** The Home Assistant user a grant signs in as. */
export const GrantPrincipalSchema = PrincipalSchema.pick({ id: true, name: true, isAdmin: true });
export type GrantPrincipal = z.infer<typeof GrantPrincipalSchema>;

/** An issued token as stored: its SHA-256 (never the token) and when it stops working (ms since the epoch). */
export const IssuedTokenSchema = z.object({ hash: z.string().min(1), expiresAt: z.number().int() });
export type IssuedToken = z.infer<typeof IssuedTokenSchema>;

/**
 * One sign-in of one Home Assistant user to one OAuth client. A refresh
 * token's reuse, its revocation or HA's refusal of `haRefreshToken` ends the
 * whole grant. `haRefreshToken` is a secret: it lives only in the 0600 file
 * and in memory, never in a log line or in `summarizeGrant`.
 */
export const GrantSchema = z.object({
  id: z.string().min(1),
  clientId: z.string().min(1),
  clientName: z.string(),
  principal: GrantPrincipalSchema,
  /** The MCP URL the tokens are bound to (RFC 8707). */
  resource: z.string().min(1),
  scope: z.string(),
  haRefreshToken: z.string().min(1),
  /** The client id HA issued `haRefreshToken` to (the add-on's origin at sign-in): HA's refresh grant needs the same string. */
  haClientId: z.string().min(1),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int(),
  refreshToken: IssuedTokenSchema,
  usedRefreshHashes: z.array(z.string().min(1)).max(USED_REFRESH_KEPT),
  accessTokens: z.array(IssuedTokenSchema).max(ACCESS_TOKENS_KEPT),
});
export type Grant = z.infer<typeof GrantSchema>;

/** What `oauth/grants.json` holds. */
export const GrantsFileSchema = z.object({
  formatVersion: z.literal(GRANTS_FORMAT_VERSION),
  grants: z.array(GrantSchema),
});
export type GrantsFile = z.infer<typeof GrantsFileSchema>;

/** A grant as the console shows it: no token, no hash, no HA secret. */
export const GrantSummarySchema = GrantSchema.pick({
  id: true,
  clientId: true,
  clientName: true,
  principal: true,
  resource: true,
  scope: true,
  createdAt: true,
  lastUsedAt: true,
}).extend({ refreshExpiresAt: z.number().int() });
export type GrantSummary = z.infer<typeof GrantSummarySchema>;

export function summarizeGrant(grant: Grant): GrantSummary {
  const { id, clientId, clientName, principal, resource, scope, createdAt, lastUsedAt } = grant;
  return { id, clientId, clientName, principal, resource, scope, createdAt, lastUsedAt, refreshExpiresAt: grant.refreshToken.expiresAt };
}

/** The token response of RFC 6749 §5.1, as the token endpoint sends it. */
export const TokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().positive(),
  token_type: z.literal("Bearer"),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;
