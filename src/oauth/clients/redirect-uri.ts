import { isPrivateAddress, literalAddress } from "./private-address.js";

/** Hosts a native app listens on for its redirect (RFC 8252 §7.3): plain http may name them. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Home Assistant's own OAuth callback (helpers/config_entry_oauth2_flow.py,
 * AUTH_CALLBACK_PATH). Without the `my` integration, HA's mcp integration
 * registers `<HA's address>/auth/external/callback`, and on a home network
 * that address is usually plain http.
 */
export const HA_CALLBACK_PATH = "/auth/external/callback";

/** Names that only a home network resolves: single labels and the suffixes set aside for local use (RFC 6762, RFC 8375). */
const HOME_NETWORK_NAME = /^(?:[a-z0-9-]+|.+\.(?:local|lan|home\.arpa|internal|localdomain))$/;

/** Longest redirect URI accepted: it travels inside the client id, so it must stay small. */
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** The URL, or undefined when the text is not an absolute URL. */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/**
 * What is wrong with a redirect URI a client declares, or undefined when it is acceptable:
 * absolute, https (http only on a loopback host), no fragment, no user name or password.
 */
export function redirectUriProblem(uri: string, homeHosts: ReadonlySet<string> = NO_HOSTS): string | undefined {
  const url = parseUrl(uri);
  if (!url) return `"${uri}" is not an absolute URL: give the full address, such as https://app.example/callback`;
  // Checked on the raw text: "…/callback#" parses to an empty hash but still names a fragment.
  if (uri.includes("#")) return `"${uri}" has a fragment (#…): a redirect URI must not have one`;
  if (url.username || url.password) return `"${uri}" carries a user name or password: remove them`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    if (isLoopbackHost(url.hostname) || isHomeAssistantCallback(url, homeHosts)) return undefined;
    return `"${uri}" uses http: use https, or a loopback host (127.0.0.1, localhost or [::1]) for an app on this machine`;
  }
  return `"${uri}" uses ${url.protocol}: only https (or http on 127.0.0.1, localhost or [::1]) is allowed`;
}

const NO_HOSTS: ReadonlySet<string> = new Set();

/**
 * Home Assistant's own callback on the home network: the one plain-http
 * redirect a server on a LAN registers. Its host is a private address, a
 * name only a home network resolves, or one of `homeHosts`: the names
 * Home Assistant gives itself (its internal and external URLs) and the
 * add-on's own names.
 */
function isHomeAssistantCallback(url: URL, homeHosts: ReadonlySet<string>): boolean {
  if (url.pathname !== HA_CALLBACK_PATH || url.search) return false;
  const address = literalAddress(url.hostname);
  if (address) return isPrivateAddress(address);
  return HOME_NETWORK_NAME.test(url.hostname) || homeHosts.has(url.hostname);
}
