/**
 * Whether a string can be a token Home Assistant issues, so that garbage is
 * refused without asking HA (every 401 HA answers counts as a failed login
 * from this add-on's address, and enough of them get it banned).
 *
 * - User access tokens, long-lived or OAuth, are HS256 JWTs: three base64url
 *   parts whose header is JSON naming its `alg`.
 * - Supervisor and add-on tokens are hex strings (`secrets.token_hex(56)`).
 */
export function couldBeHaToken(token: string): boolean {
  if (token.length < 32 || token.length > 2048) return false;
  if (/^[0-9a-f]+$/i.test(token)) return token.length <= 256;
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8"));
    return typeof header === "object" && header !== null && typeof (header as { alg?: unknown }).alg === "string";
  } catch {
    return false;
  }
}
