import { isLoopbackHost, parseUrl } from "./redirect-uri.js";
import type { OAuthClient } from "./schema.js";

/**
 * Whether the authorization server may send the browser to `redirectUri` for this client.
 * An exact string match with a declared URI, except on loopback http, where a native app picks its port at
 * run time (RFC 8252 §7.3): there any port matches, while scheme, host, path and query must match exactly.
 * A URI with a fragment never matches.
 */
export function redirectAllowed(client: Pick<OAuthClient, "redirectUris">, redirectUri: string): boolean {
  if (redirectUri.includes("#")) return false;
  if (client.redirectUris.includes(redirectUri)) return true;
  const asked = loopbackKey(redirectUri);
  return asked !== undefined && client.redirectUris.some((declared) => loopbackKey(declared) === asked);
}

/** A loopback http URI without its port, or undefined for any other URI. */
function loopbackKey(uri: string): string | undefined {
  const url = parseUrl(uri);
  if (!url || url.protocol !== "http:" || !isLoopbackHost(url.hostname)) return undefined;
  if (url.username || url.password) return undefined;
  return `http://${url.hostname}${url.pathname}${url.search}`;
}
