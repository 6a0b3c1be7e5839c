import type { IncomingMessage } from "node:http";
import { validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import { parseHostHeader, type Logger } from "../../shared/index.js";
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
 * on one of those names too (403), or from the very host it asked.
 */
export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const ingress = new Set((options.ingressProxies ?? []).map(bare));
  const add = `add it to ${options.settingName}`;
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
        const forwarded = fromIngress ? parseHostHeader(req.headers["x-forwarded-host"])?.hostname : undefined;
        const verdict = validateOriginHeader(origin, [...names, host.hostname, ...(forwarded ? [forwarded] : [])]);
        if (!verdict.ok) {
          options.logger?.debug({ origin: verdict.hostname ?? "unreadable" }, "refused a request from another site's page");
          const where = verdict.hostname ? `a page on ${verdict.hostname}` : "a page whose origin is hidden or unreadable";
          return {
            status: 403,
            body: { error: "origin_not_allowed", message: `This request came from ${where}, which is not one of HA Agent's names. Use HA Agent from its own pages; if that page is yours, ${add}.` },
          };
        }
      }
      return undefined;
    },
  };
}
