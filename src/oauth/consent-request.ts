import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/** What a person is asked to allow: the authorize request as it was checked, carried through the consent form. */
export const ConsentRequestSchema = z.object({
  clientId: z.string(),
  clientName: z.string(),
  redirectUri: z.string(),
  state: z.string(),
  codeChallenge: z.string(),
  resource: z.string(),
  scope: z.string(),
  /** The origin the browser used: where HA will send the person back. */
  origin: z.string(),
  /** Matches the consent cookie: a form posted from another site lacks it. */
  nonce: z.string(),
  expiresAt: z.number(),
});
export type ConsentRequest = z.infer<typeof ConsentRequestSchema>;

/** How long a consent page may stay open before its form is refused. */
export const CONSENT_TTL_MS = 10 * 60_000;

/**
 * Seals a consent request into the form's hidden field: HMAC-signed, so the
 * POST cannot change the client, redirect or challenge the person saw.
 */
export function sealConsent(request: ConsentRequest, key: Uint8Array): string {
  const payload = Buffer.from(JSON.stringify(request)).toString("base64url");
  return `${payload}.${sign(payload, key)}`;
}

/** The request a sealed field carries, or undefined when it was altered, forged or has expired. */
export function openConsent(sealed: string, key: Uint8Array, now: number): ConsentRequest | undefined {
  const [payload, signature, extra] = sealed.split(".");
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(payload, key));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const parsed = ConsentRequestSchema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return parsed.success && parsed.data.expiresAt > now ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function sign(payload: string, key: Uint8Array): string {
  return createHmac("sha256", key).update(`consent.${payload}`).digest("base64url");
}
