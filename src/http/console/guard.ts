import type { IncomingMessage, ServerResponse } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The page's Content-Security-Policy: its own scripts and styles only, no
 * inline script, no frames of it elsewhere but Home Assistant's ingress
 * (same origin), and requests only back to this listener.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join("; ");

export function securityHeaders(res: ServerResponse): void {
  res.setHeader("content-security-policy", CONTENT_SECURITY_POLICY);
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("referrer-policy", "no-referrer");
  res.setHeader("cross-origin-opener-policy", "same-origin");
}

/**
 * A write must come from the page itself: a browser says so in
 * Sec-Fetch-Site, or in an Origin that names the host it asked. A request
 * with neither is a script or a curl, not another site's page, and passes.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin";
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

const COOKIE = "ha_agent_console";

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * What the cookie holds in place of STATUS_TOKEN: an HMAC keyed by the
 * token. It opens the console as the token does, but the browser's cookie
 * store never holds the token itself, and a new STATUS_TOKEN ends old cookies.
 */
export function consoleCookieValue(token: string): string {
  return createHmac("sha256", token).update("ha-agent console cookie v1").digest("base64url");
}

/** A cookie's raw value; never percent-decoded, so a malformed one cannot throw. */
function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Outside ingress, another host opens the console with its token once
 * (`/?token=…`); from then on an HttpOnly, same-site cookie holds a value
 * derived from it, so the token never sits in the page, its scripts or the
 * cookie store. Loopback needs no token.
 */
export function remoteAccess(req: IncomingMessage, res: ServerResponse, options: { token: string | undefined; isLocal: boolean }): "ok" | "refused" | "redirected" {
  if (options.isLocal) return "ok";
  if (!options.token) return "refused";
  const expected = consoleCookieValue(options.token);
  const cookie = cookieOf(req, COOKIE);
  if (cookie && safeEqual(cookie, expected)) return "ok";
  const url = new URL(req.url ?? "/", "http://localhost");
  const given = url.searchParams.get("token");
  if (given && safeEqual(given, options.token)) {
    url.searchParams.delete("token");
    res.writeHead(303, { location: `${url.pathname}${url.search}`, "set-cookie": `${COOKIE}=${expected}; HttpOnly; SameSite=Strict; Path=/`, "cache-control": "no-store" });
    res.end();
    return "redirected";
  }
  return "refused";
}
