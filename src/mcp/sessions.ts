import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Clock, Logger, Principal } from "../shared/index.js";
import { describeError } from "../shared/index.js";

interface Entry {
  transport: StreamableHTTPServerTransport;
  principalId: string;
  lastSeen: number;
}

export interface McpSessions {
  /** Serves one request on `/mcp` for an authenticated caller. */
  handle(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void>;
  readonly size: number;
  /** Closes every MCP session; later requests get 503. */
  closeAll(): Promise<void>;
}

export interface McpSessionsOptions {
  createServer: () => Server;
  logger: Logger;
  clock: Clock;
  /** Sessions idle this long are closed to free memory; clients re-initialise transparently. */
  idleMs?: number;
  maxSessions?: number;
}

/**
 * MCP Streamable HTTP sessions. Each session is tied to the principal that
 * opened it: another token cannot use it, and is told it does not exist.
 */
export function createMcpSessions(options: McpSessionsOptions): McpSessions {
  const sessions = new Map<string, Entry>();
  const idleMs = options.idleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 256;
  let closing = false;

  async function evictIdle(): Promise<void> {
    const cutoff = options.clock.now() - idleMs;
    for (const [id, entry] of sessions) {
      if (entry.lastSeen < cutoff) {
        sessions.delete(id);
        await entry.transport.close().catch(() => {});
      }
    }
  }

  async function open(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void> {
    await evictIdle();
    if (sessions.size >= maxSessions) {
      return rpcError(res, 503, -32000, `Too many open MCP sessions (${maxSessions}). Close unused clients, or wait ${Math.round(idleMs / 60_000)} minutes for idle ones to expire.`);
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, principalId: principal.id, lastSeen: options.clock.now() });
        options.logger.info({ principal: principal.id, sessions: sessions.size }, `MCP client connected as ${principal.name}`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId && sessions.delete(transport.sessionId)) {
        options.logger.debug({ principal: principal.id }, "MCP session closed");
      }
    };
    await server.connect(transport);
    await transport.handleRequest(withAuth(req, principal), res, body);
  }

  return {
    get size() {
      return sessions.size;
    },
    async handle(req, res, principal, body) {
      if (closing) return rpcError(res, 503, -32000, "HA Agent is shutting down. Reconnect in a moment.");
      const sessionId = req.headers["mcp-session-id"];
      try {
        if (typeof sessionId === "string") {
          const entry = sessions.get(sessionId);
          if (!entry || entry.principalId !== principal.id) {
            return rpcError(res, 404, -32001, "Unknown MCP session. Initialize a new session.");
          }
          entry.lastSeen = options.clock.now();
          return await entry.transport.handleRequest(withAuth(req, principal), res, body);
        }
        if (req.method === "POST" && isInitializeRequest(body)) return await open(req, res, principal, body);
        return rpcError(res, 400, -32000, "Send an initialize request first, or include the Mcp-Session-Id header of an open session.");
      } catch (err) {
        options.logger.error({ err: describeError(err) }, "MCP request failed");
        if (!res.headersSent) rpcError(res, 500, -32603, `Internal error: ${describeError(err)}`);
        else res.end();
      }
    },
    async closeAll() {
      closing = true;
      const entries = [...sessions.values()];
      sessions.clear();
      await Promise.all(entries.map((e) => e.transport.close().catch(() => {})));
    },
  };
}

/** The SDK hands `req.auth` to handlers as `extra.authInfo`; the token itself stays out of it. */
function withAuth(req: IncomingMessage, principal: Principal): IncomingMessage & { auth: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> } } {
  return Object.assign(req, { auth: { token: "", clientId: principal.id, scopes: [], extra: { principal } } });
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text);
}
