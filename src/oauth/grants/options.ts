import { z } from "zod";

/** The store's numeric settings; clock, logger and data directory come in beside them. */
export const GrantLimitsSchema = z.object({
  /** How long an access token works. */
  accessTtlSeconds: z.number().int().positive().default(3600),
  /** How long a refresh token works; each refresh issues a new one, so a client in use never expires. */
  refreshTtlSeconds: z
    .number()
    .int()
    .positive()
    .default(90 * 24 * 3600),
  /** Grants kept in all; past it the least recently used goes. */
  maxGrants: z.number().int().positive().default(1000),
  /** Grants kept per Home Assistant user; past it that user's least recently used goes. */
  maxGrantsPerPrincipal: z.number().int().positive().default(50),
});
export type GrantLimits = z.input<typeof GrantLimitsSchema>;

/** `lastUsedAt` changes on every request, so it reaches the disk at most this often (or with the next write). */
export const LAST_USED_SAVE_MS = 60_000;
