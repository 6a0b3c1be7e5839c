import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { McpEndpoint } from "../mcp/index.js";
import type { Logger } from "../shared/index.js";
import { MCP_PATHS, describeError, mcpPathOf, systemClock } from "../shared/index.js";
import type { OAuthFront } from "../oauth/index.js";
import { authenticate, type TokenVerifier } from "./auth/index.js";
import { BodyError, readJsonBody } from "./body.js";
import { EVENTS_PATH, createEventsRoute, type EventsRouteOptions } from "./events/index.js";
import { createOwnNames, createRequestGuard, fixedOwnNames, type RequestGuard } from "./guard/index.js";
import type { HealthReport } from "./health.js";
import { listen, trackConnections } from "./listen.js";
import { createOAuthCallers } from "./oauth-callers.js";
import { sendJson } from "./respond.js";

export interface McpListenerOptions {
  host: string;
  port: number;
  verifier: TokenVerifier;
  /** Serves `/mcp` once the caller is known. */
  mcp: McpEndpoint;
  /** Serves `/mcp/assist`, the tools for Home Assistant's conversation agents; without it the path is not found. */
  assist?: McpEndpoint;
  health: () => HealthReport;
  logger: Logger;
  maxBodyBytes?: number;
  /** Where a caller without a valid token finds one; see TOKEN_HINTS. */
  tokenHint?: string;
  /** Serves `/events/{session_id}`; without it the path is not found. */
  events?: EventsRouteOptions;
  /** The sign-in with Home Assistant: its metadata and `/oauth/*` routes, and the challenge of every 401. */
  oauth?: OAuthFront;
  /** The Host and Origin check in front of every route; by default only localhost, this machine's names and IP addresses pass. */
  guard?: RequestGuard;
  /** Requests one address may make to the OAuth routes per minute for one client (four times that for all its clients, ten times that from all together). Default 120: a sign-in takes about eight. */
  oauthPerMinute?: number;
  /** Reverse proxies whose X-Forwarded-For names the caller of a sign-in request (behind `public_url`, a proxy on this machine). */
  trustedProxies?: readonly string[];
}

export interface Listener {
  port: number;
  close(): Promise<void>;
}

/** The listener on MCP_PORT: `/mcp` and `/events/{session_id}` (authenticated), `/healthz` (readiness) and `/livez` (liveness), both open. */
export async function startMcpListener(options: McpListenerOptions): Promise<Listener> {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const events = options.events ? createEventsRoute(options.events) : undefined;
  const oauth = options.oauth;
  const guard = options.guard ?? defaultGuard();
  // Sign-in pages and token requests are cheap to send and reach Home Assistant: each caller and client gets a budget.
  const oauthCallers = createOAuthCallers({ perMinute: options.oauthPerMinute ?? 120, trustedProxies: options.trustedProxies ?? [], now: () => Date.now() });
  const caller = (req: IncomingMessage, res: ServerResponse) =>
    authenticate({ req, res, verifier: options.verifier, logger: options.logger, tokenHint: options.tokenHint, challenge: oauth ? (r, e) => oauth.challenge(r, e) : undefined });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = await guard.check(req);
    if (refusal) return sendJson(res, refusal.status, refusal.body);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/healthz" && (req.method === "GET" || req.method === "HEAD")) {
      const report = options.health();
      return sendJson(res, report.status === "unavailable" ? 503 : 200, report);
    }
    // Liveness, for the container's HEALTHCHECK: answering at all means the process works. It stays
    // 200 while Home Assistant restarts, so a watchdog does not restart the add-on on every Core update.
    if (path === "/livez" && (req.method === "GET" || req.method === "HEAD")) {
      return sendJson(res, 200, { status: "alive", ready: options.health().status !== "unavailable" });
    }
    if (oauth?.owns(path)) {
      const allowed = oauthCallers.callerOf(req);
      if (!allowed.ok) {
        res.setHeader("Retry-After", String(Math.max(1, Math.ceil(allowed.retryAfterMs / 1000))));
        return sendJson(res, 429, { error: "slow_down", error_description: "Too many sign-in requests from this address; try again shortly." });
      }
      return oauth.handle(req, res, path, allowed.caller);
    }
    const mcpPath = mcpPathOf(path);
    const endpoint = mcpPath === MCP_PATHS.all ? options.mcp : mcpPath === MCP_PATHS.assist ? options.assist : undefined;
    if (endpoint) {
      const principal = await caller(req, res);
      if (!principal) return;
      const body = req.method === "POST" ? await readJsonBody(req, maxBodyBytes) : undefined;
      return endpoint.handle(req, res, principal, body);
    }
    const session = events ? EVENTS_PATH.exec(path)?.[1] : undefined;
    if (events && session) {
      const principal = await caller(req, res);
      if (!principal) return;
      return events.handle(req, res, principal, session);
    }
    sendJson(res, 404, { error: "not_found", message: `Nothing at ${path}. MCP clients connect to /mcp (Home Assistant to /mcp/assist); readiness is at /healthz and liveness at /livez.` });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (err instanceof BodyError) {
        // JSON-RPC: -32700 is a parse error, -32600 an invalid request (here: too large).
        if (err.closeConnection) res.setHeader("connection", "close");
        if (!res.headersSent) sendJson(res, err.status, { jsonrpc: "2.0", error: { code: err.status === 413 ? -32600 : -32700, message: err.message }, id: null });
        // Unread body bytes would be taken for the next request: end the connection once the answer is out.
        if (err.closeConnection) res.once("finish", () => req.socket.destroySoon());
        return;
      }
      options.logger.error({ err: describeError(err), url: req.url }, "request failed");
      if (!res.headersSent) sendJson(res, 500, { error: "internal", message: "The request failed inside HA Agent; the details are in its log." });
      else res.end();
    });
  });
  const closeServer = trackConnections(server);
  const port = await listen(server, options.port, options.host, "The MCP server", "MCP_PORT");
  return {
    port,
    close: async () => {
      // Open event streams never end on their own: they are told why, then the server closes.
      events?.closeAll("HA Agent is stopping; reconnect with Last-Event-ID once it is back");
      await closeServer();
    },
  };
}

/** The guard a listener gets when its caller names none: the machine's own names and IP addresses only. */
export function defaultGuard(): RequestGuard {
  return createRequestGuard({ names: createOwnNames({ fixed: fixedOwnNames({ addon: false, publicUrl: undefined, allowedHosts: [] }), clock: systemClock }), settingName: "ALLOWED_HOSTS" });
}
