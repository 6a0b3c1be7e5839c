import type { ServerResponse } from "node:http";
import { send } from "./respond.js";

/** How the token endpoint fails when told to: HA's aiohttp answering 500, or the connection closed without an answer. */
export type TokenEndpointFault = "error" | "close" | undefined;

/**
 * Faults of Home Assistant's HTTP side that sign-ins meet. `banned` is HA's
 * ban middleware (`components/http/ban.py`, `ban_middleware`): once an
 * address is in `ip_bans.yaml`, every HTTP request from it, to any view, is
 * refused with aiohttp's bare `HTTPForbidden` ("403: Forbidden", plain
 * text), before the view runs. The token endpoint's own faults model HA
 * starting, stopping or overloaded behind it.
 */
export class AuthHttpFaults {
  banned = false;
  tokenEndpoint: TokenEndpointFault = undefined;

  /** Answers the request as the fault would, or returns false to serve it normally. */
  apply(path: string, res: ServerResponse): boolean {
    if (this.banned) {
      send(res, 403, "text/plain; charset=utf-8", "403: Forbidden");
      return true;
    }
    if (path !== "/auth/token" || !this.tokenEndpoint) return false;
    // aiohttp's answer to an exception in a view.
    if (this.tokenEndpoint === "error") send(res, 500, "text/plain; charset=utf-8", "500 Internal Server Error\n\nServer got itself in trouble");
    else res.socket?.destroy();
    return true;
  }
}
