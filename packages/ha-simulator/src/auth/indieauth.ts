import { isIP } from "node:net";

/**
 * HA's IndieAuth rules for `client_id` and `redirect_uri`
 * (`components/auth/indieauth.py`), reproduced on the raw text of the URL:
 * HA compares Python's `urlparse` netloc, so `host:80` and `host` differ, and a
 * netloc with a port is never read as an IP address.
 */

interface UrlParts {
  scheme: string;
  /** Lower-cased, port included exactly as written. */
  netloc: string;
  path: string;
  fragment: string | undefined;
}

// RFC 3986, appendix B: splits any URI into its parts without normalising them.
const URI_PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?[^#]*)?(?:#(.*))?$/s;

function parseUrl(url: string): UrlParts {
  const m = URI_PARTS.exec(url);
  const path = m?.[3] ?? "";
  // IndieAuth 3.2: a URL without a path is treated as having the path "/".
  return { scheme: (m?.[1] ?? "").toLowerCase(), netloc: (m?.[2] ?? "").toLowerCase(), path: path === "" ? "/" : path, fragment: m?.[4] };
}

/** Why `client_id` is not a client id HA accepts, or undefined when it is. */
export function clientIdProblem(clientId: string): string | undefined {
  const parts = parseUrl(clientId);
  if (parts.scheme !== "http" && parts.scheme !== "https") return "The client id must be an http or https URL.";
  if (parts.path.split("/").some((s) => s === "." || s === "..")) return "The client id cannot contain single-dot or double-dot path segments.";
  if (parts.fragment !== undefined && parts.fragment !== "") return "The client id cannot contain a fragment.";
  if (parts.netloc.includes("@")) return "The client id cannot contain a username or password.";
  const port = /:([^\]:]*)$/.exec(parts.netloc)?.[1];
  if (port !== undefined && port !== "" && !(/^\d+$/.test(port) && Number(port) <= 65535)) return "The client id contains an invalid port.";
  // HA reads the whole netloc as an IP address, so only a bare address (no port) is checked against the local ranges.
  const host = parts.netloc.startsWith("[") && parts.netloc.endsWith("]") ? parts.netloc.slice(1, -1) : parts.netloc;
  if (isIP(host) !== 0 && !isLocalAddress(host)) return "The client id's host must be a domain name or a local IP address.";
  return undefined;
}

export type RedirectCheck = { ok: true } | { ok: false; reason: string };

// HA lets its own companion apps use their app callbacks without fetching a page.
const APP_REDIRECTS = new Map<string, readonly string[]>([
  ["https://home-assistant.io/iOS", ["homeassistant://auth-callback"]],
  [
    "https://home-assistant.io/android",
    [
      "homeassistant://auth-callback",
      "https://wear.googleapis.com/3p_auth/io.homeassistant.companion.android",
      "https://wear.googleapis-cn.com/3p_auth/io.homeassistant.companion.android",
    ],
  ],
]);

/**
 * Whether HA would send a code for `clientId` to `redirectUri` without
 * fetching anything: same scheme and netloc, or a companion app's callback.
 * Anything else needs HA to fetch the client's page for `<link rel="redirect_uri">`,
 * which the simulator does not do; the reason says so.
 */
export function checkRedirect(o: { clientId: string; redirectUri: string }): RedirectCheck {
  const problem = clientIdProblem(o.clientId);
  if (problem) return { ok: false, reason: problem };
  const client = parseUrl(o.clientId);
  const redirect = parseUrl(o.redirectUri);
  if (client.scheme === redirect.scheme && client.netloc === redirect.netloc) return { ok: true };
  if (APP_REDIRECTS.get(o.clientId)?.includes(o.redirectUri)) return { ok: true };
  return {
    ok: false,
    reason:
      `The redirect URI ${o.redirectUri} is not on the client's own scheme, host and port (${client.scheme}://${client.netloc}). ` +
      "Home Assistant would fetch the client id's page and look for it in a <link rel=\"redirect_uri\"> tag; the simulator does not fetch pages, so use a redirect URI on the client id's origin.",
  };
}

/** HA's `is_local`: loopback, private or link-local. */
function isLocalAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split(".").map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const v6 = ip.toLowerCase();
  if (v6 === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6)?.[1];
  if (mapped) return isLocalAddress(mapped);
  return /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
}
