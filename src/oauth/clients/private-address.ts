import { BlockList, isIP } from "node:net";

// Addresses a metadata fetch must never reach: it would let anyone who names a client id probe the home network.
const BLOCKED_V4 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 3], // multicast and reserved, up to 255.255.255.255
] as const) {
  BLOCKED_V4.addSubnet(net, prefix, "ipv4");
}
const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [
  ["::", 127], // unspecified and loopback
  ["64:ff9b:1::", 48], // NAT64 for local use (RFC 8215)
  ["100::", 64], // discard-only
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED_V6.addSubnet(net, prefix, "ipv6");
}

/** Whether an IP address is private, loopback, link-local, unique-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return false;
  if (family === 4) return BLOCKED_V4.check(bare, "ipv4");
  const groups = ipv6Groups(bare);
  // An address the URL parser cannot read (a zone index, say) is not reached.
  if (!groups) return true;
  if (embeddedIpv4(groups).some((v4) => BLOCKED_V4.check(v4, "ipv4"))) return true;
  return BLOCKED_V6.check(bare, "ipv6");
}

/** The address a URL host names literally (brackets removed for IPv6), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** The eight 16-bit groups of an IPv6 address, in whatever spelling (compressed, dotted tail, upper case). */
function ipv6Groups(address: string): number[] | undefined {
  let hex: string;
  try {
    // The URL parser writes every spelling the same way: lower case, compressed, the dotted tail as hex.
    hex = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head, tail] = hex.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = hex.includes("::") ? 8 - left.length - right.length : 0;
  const groups = [...left, ...Array.from({ length: zeros }, () => "0"), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

const dotted = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 addresses an IPv6 address carries, where the network would
 * deliver it to them: IPv4-compatible (`::7f00:1`), IPv4-mapped
 * (`::ffff:127.0.0.1`) and IPv4-translated (`::ffff:0:a.b.c.d`), NAT64's
 * well-known prefix (`64:ff9b::/96`), 6to4 (`2002:AABB:CCDD::/48`) and
 * Teredo (`2001:0::/32`, server and obfuscated client).
 */
function embeddedIpv4(g: number[]): string[] {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 6)) return [dotted(g[6]!, g[7]!)];
  if (zero(0, 5) && g[5] === 0xffff) return [dotted(g[6]!, g[7]!)];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [dotted(g[6]!, g[7]!)];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [dotted(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [dotted(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [dotted(g[2]!, g[3]!), dotted(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}
