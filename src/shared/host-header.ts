import { isIP } from "node:net";

/** A `Host` header that names a host and nothing else, as the URL parser reads it. */
export interface HostHeader {
  /** Lower-case host and port as a URL holds it (`example.com:8808`, `[::1]:8808`); a default port is dropped. */
  readonly host: string;
  /** The name or address alone, lower case, IPv6 in brackets, without a trailing dot. */
  readonly hostname: string;
  /** An IP address rather than a name: nobody can point it elsewhere by DNS. */
  readonly isAddress: boolean;
}

// The characters a host name, an IPv4 or bracketed IPv6 address and a port are made of. Anything else
// (a slash, @, ?, #, a space, a quote) would make the URL parser read a path, a user or a query.
const HOST_CHARACTERS = /^[A-Za-z0-9._~:[\]-]+$/;
const MAX_HOST_LENGTH = 300;

/**
 * Parses a `Host` header with the URL parser, so a port over 65535, a bad
 * IPv6 literal or a stray path is refused here, once, rather than thrown
 * later from somewhere that builds a URL from it. Undefined for anything
 * that is not exactly a host with an optional port.
 */
export function parseHostHeader(value: string | string[] | undefined): HostHeader | undefined {
  if (typeof value !== "string") return undefined;
  if (value.length > MAX_HOST_LENGTH) return undefined;
  // Every request carries one; clients send the same few, and the URL parser is the dearest part of the check.
  if (parsed.has(value)) return parsed.get(value);
  const host = parse(value);
  if (parsed.size >= MAX_REMEMBERED) parsed.clear();
  parsed.set(value, host);
  return host;
}

/** Host headers seen lately, parsed; a flood of made-up names only empties it. */
const parsed = new Map<string, HostHeader | undefined>();
const MAX_REMEMBERED = 64;

function parse(value: string): HostHeader | undefined {
  if (!HOST_CHARACTERS.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) return undefined;
  const hostname = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
  if (hostname === "") return undefined;
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  // Frozen: one parse is handed to every request with that header.
  return Object.freeze({ host: url.host, hostname, isAddress: isIP(bare) !== 0 });
}

/** The host of a URL, lower case and without a trailing dot; undefined for an empty or unreadable one. */
export function hostOfUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, "") || undefined;
  } catch {
    return undefined;
  }
}
