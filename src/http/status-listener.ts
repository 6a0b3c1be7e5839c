import { createServer } from "node:http";
import { describeError, type Logger } from "../shared/index.js";
import type { Console } from "./console/index.js";
import type { RequestGuard } from "./guard/index.js";
import { listen, trackConnections } from "./listen.js";
import { defaultGuard, type Listener } from "./mcp-listener.js";
import { sendJson } from "./respond.js";

export interface StatusListenerOptions {
  host: string;
  port: number;
  /**
   * When set (add-on mode), only requests through the ingress proxy are
   * answered: from these addresses, with the X-Ingress-Path header the
   * proxy adds to every request (supervisor/api/ingress.py).
   */
  allowedAddresses?: string[];
  /** What a refused request is told: where the page lives, and how to reach it. */
  refusal?: string;
  console: Console;
  logger: Logger;
  /** The Host and Origin check in front of every route; by default only localhost, this machine's names and IP addresses pass. */
  guard?: RequestGuard;
}

/** The listener on STATUS_PORT: the console in the HA sidebar, through ingress, or on loopback. */
export async function startStatusListener(options: StatusListenerOptions): Promise<Listener> {
  const guard = options.guard ?? defaultGuard();
  const allowed = options.allowedAddresses ? new Set(options.allowedAddresses.flatMap((a) => [a, `::ffff:${a}`])) : undefined;
  const server = createServer((req, res) => {
    if (allowed && (!allowed.has(req.socket.remoteAddress ?? "") || req.headers["x-ingress-path"] === undefined)) {
      options.logger.debug({ from: req.socket.remoteAddress }, "status page refused a request that did not come through the ingress proxy");
      const text = `${options.refusal ?? "This page answers only Home Assistant's ingress proxy: open HA Agent in the Home Assistant sidebar."}\n`;
      res.writeHead(403, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store" }).end(text);
      return;
    }
    const answer = async () => {
      const refusal = await guard.check(req);
      if (refusal) return sendJson(res, refusal.status, refusal.body);
      await options.console.handle(req, res);
    };
    answer().catch((err: unknown) => {
      options.logger.warn({ err: describeError(err), path: req.url }, "the console could not answer a request");
      // A person never sees a stack trace: the page shows this message.
      if (!res.headersSent) sendJson(res, 500, { error: "internal", message: "HA Agent could not answer this; the add-on log says why. Reload to try again." });
      else res.end();
    });
  });
  const closeServer = trackConnections(server);
  const port = await listen(server, options.port, options.host, "The status page", "STATUS_PORT");
  return {
    port,
    close: async () => {
      options.console.closeAll("HA Agent is stopping");
      await closeServer();
    },
  };
}
