/** Hosts a native app listens on for its redirect (RFC 8252 §7.3): the only ones plain http may name. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

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
export function redirectUriProblem(uri: string): string | undefined {
  const url = parseUrl(uri);
  if (!url) return `"${uri}" is not an absolute URL: give the full address, such as https://app.example/callback`;
  // Checked on the raw text: "…/callback#" parses to an empty hash but still names a fragment.
  if (uri.includes("#")) return `"${uri}" has a fragment (#…): a redirect URI must not have one`;
  if (url.username || url.password) return `"${uri}" carries a user name or password: remove them`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname) ? undefined : `"${uri}" uses http: use https, or a loopback host (127.0.0.1, localhost or [::1]) for an app on this machine`;
  }
  return `"${uri}" uses ${url.protocol}: only https (or http on 127.0.0.1, localhost or [::1]) is allowed`;
}
