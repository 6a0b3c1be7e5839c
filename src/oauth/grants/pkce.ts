import { createHash, timingSafeEqual } from "node:crypto";

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 S256: true when BASE64URL(SHA-256(verifier)) equals the challenge the client sent at /authorize. */
export function verifyPkceS256(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const expected = createHash("sha256").update(verifier, "ascii").digest();
  const given = Buffer.from(challenge, "utf8");
  const computed = Buffer.from(expected.toString("base64url"), "utf8");
  // Lengths are public (43 characters); only the content is compared in constant time.
  return given.length === computed.length && timingSafeEqual(given, computed);
}
