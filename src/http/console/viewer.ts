import type { IncomingMessage } from "node:http";
import type { Viewer } from "./wire.js";

/** Who is an administrator in Home Assistant, and what people are called there. */
export interface UserDirectory {
  lookup(userId: string): Promise<{ name: string; isAdmin: boolean } | undefined>;
}

export interface ViewerRules {
  /** Addresses whose X-Remote-User-* headers are believed (the ingress proxy, loopback, STATUS_TRUSTED_PROXIES). */
  trustedProxies: readonly string[];
  /** Demo mode: a request that names nobody is the demo house's user. */
  demoUser?: { id: string; name: string };
  users: UserDirectory;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  return one?.trim() || undefined;
};

/** `::ffff:1.2.3.4` is how an IPv4 client shows on a dual-stack socket. */
export function isTrustedAddress(address: string | undefined, trusted: readonly string[]): boolean {
  if (!address) return false;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return trusted.includes(plain) || trusted.includes(address);
}

/**
 * The person using the console: named by the ingress headers when, and
 * only when, they come from a trusted proxy; otherwise nobody (or, in demo
 * mode, the demo user). Whether they are an admin is asked of HA, never
 * taken from a header.
 */
export async function viewerOf(req: IncomingMessage, rules: ViewerRules): Promise<Viewer | undefined> {
  const id = isTrustedAddress(req.socket.remoteAddress, rules.trustedProxies) ? header(req, "x-remote-user-id") : undefined;
  if (id) {
    const known = await rules.users.lookup(id);
    const name = header(req, "x-remote-user-display-name") ?? header(req, "x-remote-user-name") ?? known?.name ?? "Home Assistant user";
    return { id, name, isAdmin: known?.isAdmin ?? false, via: "ingress" };
  }
  if (!rules.demoUser) return undefined;
  const known = await rules.users.lookup(rules.demoUser.id);
  return { id: rules.demoUser.id, name: known?.name ?? rules.demoUser.name, isAdmin: known?.isAdmin ?? false, via: "demo" };
}
