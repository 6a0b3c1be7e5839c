import type { IncomingMessage } from "node:http";
import { validateHostHeader } from "@modelcontextprotocol/server";
import { parseHostHeader, type HostHeader, type Logger } from "../../shared/index.js";
import type { OwnNames } from "./own-names.js";

/** Why a request is not served, as the listener answers it: never a 500, never echoing what could not be parsed. */
export interface Refusal {
  status: 400 | 403 | 421;
  body: { error: string; message: string };
}

export interface RequestGuardOptions {
  names: OwnNames;
  /**
   * Peers that forward Home Assistant's own requests (the ingress proxy, for
   * the status page in add-on mode): their Host is whatever name the person
   * opened Home Assistant by, and a page's Origin must be that same host.
   */
  ingressProxies?: readonly string[];
  /**
   * Reverse proxies on this machine that serve the status page from their
   * own origin (an ingress stand-in): a page's Origin may be the host they
   * name in X-Forwarded-Host. Only the Origin check believes them; the Host
   * check does not.
   */
  forwardingProxies?: readonly string[];
  /** `public_url`: behind a reverse proxy, pages are served from its https origin. */
  publicUrl?: string | undefined;
  /** How refusals name the setting that adds a host: `allowed_hosts` or `ALLOWED_HOSTS`. */
  settingName: string;
  logger?: Logger;
}

export interface RequestGuard {
  /** Undefined when the request may be served; otherwise the answer to send. */
  check(req: IncomingMessage): Promise<Refusal | undefined>;
}

const bare = (address: string | undefined): string => (address ?? "").replace(/^::ffff:/, "");

/**
 * The check in front of every route of a listener, against DNS rebinding
 * and other sites' pages. A page on a name the attacker controls can point
 * that name at this machine, and the browser then calls HA Agent as if it
 * were the attacker's own site: same-origin, cookies and all. Its requests
 * carry the attacker's name in Host, so a Host that is a DNS name HA Agent
 * does not own is refused (421). An IP address cannot be rebound and always
 * passes. A browser's request that carries an Origin must come from a page
 * of the very origin it asked (scheme, host and port, as browsers define an
 * origin), from `public_url`'s, or behind ingress from Home Assistant's own
 * page (403): another port on the same host is another site, such as
 * another add-on's page. Loopback names stand for each other.
 */
export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const ingress = new Set((options.ingressProxies ?? []).map(bare));
  const add = `add it to ${options.settingName}`;
  const publicOrigin = options.publicUrl ? pageOrigin(options.publicUrl)?.origin : undefined;
  const forwarding = new Set((options.forwardingProxies ?? []).map(bare));
  return {
    async check(req) {
      const host = parseHostHeader(req.headers.host);
      if (!host) {
        return { status: 400, body: { error: "bad_host", message: "The request's Host header is not a host name or address with an optional port. Send the host you connect to, e.g. Host: homeassistant.local:8808." } };
      }
      const fromIngress = ingress.has(bare(req.socket.remoteAddress));
      const names = await options.names.list(host.isAddress || fromIngress ? undefined : host.hostname);
      // The SDK's own check, over the names this program owns; addresses and the ingress proxy's forwarded host are let through before it.
      if (!host.isAddress && !fromIngress && !validateHostHeader(host.hostname, [...names]).ok) {
        options.logger?.debug({ host: host.hostname }, "refused a request for a host name that is not HA Agent's");
        return {
          status: 421,
          body: { error: "unknown_host", message: `HA Agent does not answer to the name ${host.hostname}. If that is how you reach it, ${add}; IP addresses and HA Agent's own names always work.` },
        };
      }
      const origin = req.headers.origin;
      if (origin !== undefined) {
        const fromForwarder = fromIngress || forwarding.has(bare(req.socket.remoteAddress));
        const forwarded = fromForwarder ? parseHostHeader(req.headers["x-forwarded-host"]) : undefined;
        const page = pageOrigin(origin);
        if (!page || !allowedPage(page, { host, forwarded, publicOrigin })) {
          const where = page ? `a page at ${page.origin}` : "a page whose origin is hidden or unreadable";
          options.logger?.debug({ origin: page?.origin ?? "unreadable" }, "refused a request from another site's page");
          return {
            status: 403,
            body: { error: "origin_not_allowed", message: `This request came from ${where}, which is not HA Agent's own page at http://${host.host}. Use HA Agent from its own pages, or call it from a program rather than a web page.` },
          };
        }
      }
      return undefined;
    },
  };
}

/** Names of this machine's loopback interface: a page on one of them is on the same machine as a request to another. */
const isLoopback = (hostname: string): boolean => hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/** An Origin header as the URL parser reads it; undefined for "null", a file page or anything that is not an http(s) origin. */
function pageOrigin(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin !== "null" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a page at `page` may call: the request's own origin, public_url's, or Home Assistant's page behind ingress. */
function allowedPage(page: URL, o: { host: HostHeader; forwarded: HostHeader | undefined; publicOrigin: string | undefined }): boolean {
  if (page.origin === o.publicOrigin) return true;
  // Behind ingress (or a local proxy) the page is the proxy's, at whatever scheme the person opened it by.
  if (o.forwarded && page.host === o.forwarded.host) return true;
  if (page.protocol !== "http:") return false;
  if (page.host === o.host.host) return true;
  const port = (h: string) => (/:(\d+)$/.exec(h)?.[1] ?? "80");
  return isLoopback(page.hostname) && isLoopback(o.host.hostname) && port(page.host) === port(o.host.host);
}
