import { isIP } from "node:net";

/** A `Host` header that names a host and nothing else, as the URL parser reads it. */
export interface HostHeader {
  /** Lower-case host and port as a URL holds it (`example.com:8808`, `[::1]:8808`); a default port is dropped. */
  host: string;
  /** The name or address alone, lower case, IPv6 in brackets, without a trailing dot. */
  hostname: string;
  /** An IP address rather than a name: nobody can point it elsewhere by DNS. */
  isAddress: boolean;
}

// The characters a host name, an IPv4 or bracketed IPv6 address and a port are made of. Anything else
// (a slash, @, ?, #, a space, a quote) would make the URL parser read a path, a user or a query.
const HOST_CHARACTERS = /^[A-Za-z0-9._~:[\]-]{1,300}$/;

/**
 * Parses a `Host` header with the URL parser, so a port over 65535, a bad
 * IPv6 literal or a stray path is refused here, once, rather than thrown
 * later from somewhere that builds a URL from it. Undefined for anything
 * that is not exactly a host with an optional port.
 */
export function parseHostHeader(value: string | string[] | undefined): HostHeader | undefined {
  if (typeof value !== "string" || !HOST_CHARACTERS.test(value)) return undefined;
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
  return { host: url.host, hostname, isAddress: isIP(bare) !== 0 };
}
