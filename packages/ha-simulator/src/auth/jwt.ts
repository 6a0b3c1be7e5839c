import { createHmac, timingSafeEqual } from "node:crypto";

/** The claims HA puts in an access token: the refresh token's id, issued and expiry times in epoch seconds. */
export interface AccessClaims {
  iss: string;
  iat: number;
  exp: number;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const HEADER = b64({ alg: "HS256", typ: "JWT" });

function signature(input: string, key: string): Buffer {
  return createHmac("sha256", key).update(input).digest();
}

/** An HS256 JWT, the way HA signs access tokens with a refresh token's `jwt_key`. */
export function signJwt(claims: AccessClaims, key: string): string {
  const input = `${HEADER}.${b64(claims)}`;
  return `${input}.${signature(input, key).toString("base64url")}`;
}

/** The claims of an HS256 JWT without checking its signature: how HA finds the refresh token to check it with. */
export function unverifiedClaims(token: string): Partial<AccessClaims> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8"));
    if (typeof header !== "object" || header === null || (header as { alg?: unknown }).alg !== "HS256") return undefined;
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null ? (claims as Partial<AccessClaims>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `token` carries a valid HS256 signature made with `key`. */
export function hasValidSignature(token: string, key: string): boolean {
  const dot = token.lastIndexOf(".");
  if (dot < 0) return false;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const wanted = signature(token.slice(0, dot), key);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
