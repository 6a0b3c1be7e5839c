import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { OAUTH_PATHS } from "./metadata.js";
import { PENDING_TTL_MS } from "./pending-logins.js";

/** Ties a consent form to the browser it was shown in. */
export const CONSENT_COOKIE = "ha_agent_consent";
/** Ties a pending sign-in to the browser that allowed it, across Home Assistant's login page. */
export const LOGIN_COOKIE = "ha_agent_login";

const LOGIN_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** A cookie's raw value as the browser sent it; never decoded, so a malformed one cannot throw. */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The browser's login cookie: the one it has, or a new random one. Kept
 * for every sign-in the browser allows, so two sign-ins in two tabs do not
 * overwrite each other's.
 */
export function loginCookieOf(req: IncomingMessage): { value: string; fresh: boolean } {
  const have = cookieOf(req, LOGIN_COOKIE);
  if (have && LOGIN_VALUE.test(have)) return { value: have, fresh: false };
  return { value: randomBytes(32).toString("base64url"), fresh: true };
}

/**
 * The login cookie's header. SameSite=Lax, not Strict: the browser comes
 * back from Home Assistant's login page by a top-level redirect from
 * another origin, and a Strict cookie would stay behind. HttpOnly, and only
 * under /oauth.
 */
export function loginCookieHeader(value: string, secure: boolean): string {
  return `${LOGIN_COOKIE}=${value}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=${PENDING_TTL_MS / 1000}${secure ? "; Secure" : ""}`;
}

/** The consent cookie's header: SameSite=Strict, so a form another site posts in the person's browser arrives without it. */
export function consentCookieHeader(value: string, o: { secure: boolean; maxAgeS: number }): string {
  return `${CONSENT_COOKIE}=${value}; Path=${OAUTH_PATHS.authorize}; HttpOnly; SameSite=Strict; Max-Age=${o.maxAgeS}${o.secure ? "; Secure" : ""}`;
}
