import { createServer } from "node:http";
import type { Logger } from "../shared/index.js";
import type { HealthReport } from "./health.js";
import { listen, trackConnections } from "./listen.js";
import type { Listener } from "./mcp-listener.js";
import { sendJson } from "./respond.js";
import { renderStatusPage, type StatusInfo } from "./status-page.js";

export interface StatusListenerOptions {
  host: string;
  port: number;
  /** When set (add-on mode), only these client addresses are answered: the ingress proxy. */
  allowedAddresses?: string[];
  health: () => HealthReport;
  info: StatusInfo;
  logger: Logger;
}

/** Ingress puts the add-on behind a path prefix; it must look like a path so it cannot inject markup. */
function ingressPath(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^\/[\w\-/]*$/.test(value) ? value.replace(/\/$/, "") : "";
}

/** The listener on STATUS_PORT: the status page in the HA sidebar, through ingress. */
export async function startStatusListener(options: StatusListenerOptions): Promise<Listener> {
  const allowed = options.allowedAddresses ? new Set(options.allowedAddresses.flatMap((a) => [a, `::ffff:${a}`])) : undefined;
  const server = createServer((req, res) => {
    if (allowed && !allowed.has(req.socket.remoteAddress ?? "")) {
      options.logger.debug({ from: req.socket.remoteAddress }, "status page refused a client that is not the ingress proxy");
      res.writeHead(403).end();
      return;
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendJson(res, 405, { error: "method_not_allowed" });
      return;
    }
    const health = options.health();
    if (path === "/api/health") {
      sendJson(res, 200, health);
      return;
    }
    if (path !== "/" && path !== "/index.html") {
      sendJson(res, 404, { error: "not_found" });
      return;
    }
    const userHeader = req.headers["x-remote-user-display-name"] ?? req.headers["x-remote-user-name"];
    const html = renderStatusPage({ health, info: options.info, ingressPath: ingressPath(req.headers["x-ingress-path"]), userName: Array.isArray(userHeader) ? userHeader[0] : userHeader });
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(html);
  });
  const closeServer = trackConnections(server);
  const port = await listen(server, options.port, options.host, "The status page");
  return { port, close: closeServer };
}
