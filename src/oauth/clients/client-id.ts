import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { OAuthError } from "../errors.js";
import { ApplicationTypeSchema } from "./schema.js";

/** The prefix of every client id this server registers: `hac_<payload>.<signature>`. */
export const REGISTERED_CLIENT_PREFIX = "hac_";

/** Bytes of key the signature needs at least: HMAC-SHA256 gains nothing past 32, and loses below. */
export const MIN_CLIENT_KEY_BYTES = 32;

/** Longest id worth checking: ten redirect URIs of the longest length fit well inside. */
const MAX_CLIENT_ID_LENGTH = 32 * 1024;

/** What a registered client id carries, so no store is needed to know the client later. */
export const RegisteredClientSchema = z.object({
  redirectUris: z.array(z.string()).min(1),
  name: z.string().optional(),
  applicationType: ApplicationTypeSchema,
  /** Seconds since the epoch, as RFC 7591's client_id_issued_at. */
  issuedAt: z.number().int().nonnegative(),
});
export type RegisteredClient = z.infer<typeof RegisteredClientSchema>;

// A positional array keeps ids short; the leading 1 lets a later layout tell itself apart.
const PayloadSchema = z.tuple([z.literal(1), z.number().int().nonnegative(), z.enum(["w", "n"]), z.string(), z.array(z.string()).min(1)]);

/** Refuses a key too short to sign with: a programming fault in the caller, not a client's. */
export function checkClientKey(key: Uint8Array): void {
  if (key.byteLength < MIN_CLIENT_KEY_BYTES) {
    throw new Error(`the client-id signing key has ${key.byteLength} bytes; give at least ${MIN_CLIENT_KEY_BYTES} random bytes, kept in the data folder`);
  }
}

/** A self-contained, signed client id for a registered client. */
export function signClientId(client: RegisteredClient, key: Uint8Array): string {
  const fields = [1, client.issuedAt, client.applicationType === "native" ? "n" : "w", client.name ?? "", client.redirectUris];
  const unsigned = REGISTERED_CLIENT_PREFIX + Buffer.from(JSON.stringify(fields)).toString("base64url");
  return `${unsigned}.${signature(unsigned, key)}`;
}

/** The client a signed id describes; OAuthError `invalid_client` when it was not signed with this key or was altered. */
export function verifyClientId(clientId: string, key: Uint8Array): RegisteredClient {
  const dot = clientId.lastIndexOf(".");
  if (!clientId.startsWith(REGISTERED_CLIENT_PREFIX) || dot < 0 || clientId.length > MAX_CLIENT_ID_LENGTH) throw notIssued();
  const unsigned = clientId.slice(0, dot);
  // Compared as text, not decoded bytes: base64url decoding ignores stray bits, so two texts could give one signature.
  const given = Buffer.from(clientId.slice(dot + 1));
  const expected = Buffer.from(signature(unsigned, key));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notIssued();
  const parsed = PayloadSchema.safeParse(decodePayload(unsigned.slice(REGISTERED_CLIENT_PREFIX.length)));
  // Only reachable with a validly signed id of a layout this version does not know.
  if (!parsed.success) throw notIssued();
  const [, issuedAt, type, name, redirectUris] = parsed.data;
  return { issuedAt, applicationType: type === "n" ? "native" : "web", redirectUris, ...(name ? { name } : {}) };
}

function signature(unsigned: string, key: Uint8Array): string {
  return createHmac("sha256", key).update(unsigned).digest("base64url");
}

function decodePayload(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

function notIssued(): OAuthError {
  return new OAuthError("invalid_client", "this client_id was not issued by this server, or was changed: register the client again at the registration endpoint");
}
