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
  /** JSON-RPC request ids whose answers are still owed on this session. */
  inFlight: Set<string | number>;
}

export interface McpSessions {
  /** Serves one request on `/mcp` for an authenticated caller. */
  handle(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void>;
  readonly size: number;
  /** Open sessions of one principal. */
  countFor(principalId: string): number;
  /** Closes every MCP session; later requests get 503. */
  closeAll(): Promise<void>;
}

export interface McpSessionsOptions {
  createServer: () => Server;
  logger: Logger;
  clock: Clock;
  /** Sessions idle this long are closed; a client whose session is gone re-initialises (default 10 min). */
  idleMs?: number;
  /** Sessions one principal may hold; a new one evicts that principal's least recently used (default 16). */
  maxPerPrincipal?: number;
  /** All sessions together, to bound memory; a new one evicts from whoever holds the most (default 256). */
  maxSessions?: number;
}

/**
 * MCP Streamable HTTP sessions. Each session is tied to the principal that
 * opened it: another token cannot use it, and is told it does not exist.
 * Clients that never close their sessions (the SDK's `close()` sends no
 * DELETE) only ever push out their own oldest sessions: no caller can make
 * the server refuse another.
 */
export function createMcpSessions(options: McpSessionsOptions): McpSessions {
  // Map order is recency order: a touched session is moved to the end.
  const sessions = new Map<string, Entry>();
  const idleMs = options.idleMs ?? 10 * 60_000;
  const maxPerPrincipal = options.maxPerPrincipal ?? 16;
  const maxSessions = options.maxSessions ?? 256;
  let closing = false;

  function drop(id: string, entry: Entry, why: string): void {
    sessions.delete(id);
    options.logger.debug({ principal: entry.principalId, why }, "MCP session closed");
    void entry.transport.close().catch(() => {});
  }

  function touch(id: string, entry: Entry): void {
    entry.lastSeen = options.clock.now();
    sessions.delete(id);
    sessions.set(id, entry);
  }

  function evictIdle(): void {
    const cutoff = options.clock.now() - idleMs;
    for (const [id, entry] of sessions) if (entry.lastSeen < cutoff) drop(id, entry, "idle");
  }

  /** The least recently used session of `principalId`, or of whoever holds the most when undefined. */
  function oldestOf(principalId: string | undefined): [string, Entry] | undefined {
    let owner = principalId;
    if (owner === undefined) {
      const counts = new Map<string, number>();
      for (const e of sessions.values()) counts.set(e.principalId, (counts.get(e.principalId) ?? 0) + 1);
      owner = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    }
    for (const pair of sessions) if (pair[1].principalId === owner) return pair;
    return undefined;
  }

  function makeRoom(principal: Principal): void {
    evictIdle();
    while (countFor(principal.id) >= maxPerPrincipal) {
      const oldest = oldestOf(principal.id);
      if (!oldest) break;
      drop(oldest[0], oldest[1], "the principal opened a newer session");
    }
    while (sessions.size >= maxSessions) {
      const oldest = oldestOf(undefined);
      if (!oldest) break;
      drop(oldest[0], oldest[1], "too many sessions in all");
    }
  }

  function countFor(principalId: string): number {
    let n = 0;
    for (const e of sessions.values()) if (e.principalId === principalId) n++;
    return n;
  }

  async function open(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void> {
    makeRoom(principal);
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, principalId: principal.id, lastSeen: options.clock.now(), inFlight: new Set() });
        options.logger.info({ principal: principal.id, sessions: sessions.size }, `MCP client connected as ${principal.name}`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(withAuth(req, principal), res, body);
  }

  async function serve(entry: Entry, req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void> {
    const ids = requestIds(body);
    const taken = ids.find((id) => entry.inFlight.has(id));
    if (taken !== undefined) {
      // The SDK would route both answers to one stream and leave the other caller hanging.
      return rpcError(res, 409, -32600, `Request id ${JSON.stringify(taken)} is already in use by a request still running on this session; send the new request with another id.`, taken);
    }
    for (const id of ids) entry.inFlight.add(id);
    if (ids.length) res.once("close", () => ids.forEach((id) => entry.inFlight.delete(id)));
    await entry.transport.handleRequest(withAuth(req, principal), res, body);
  }

  return {
    get size() {
      return sessions.size;
    },
    countFor,
    async handle(req, res, principal, body) {
      if (closing) return rpcError(res, 503, -32000, "HA Agent is shutting down. Reconnect in a moment.");
      const sessionId = req.headers["mcp-session-id"];
      try {
        if (typeof sessionId === "string") {
          const entry = sessions.get(sessionId);
          if (!entry || entry.principalId !== principal.id || entry.lastSeen < options.clock.now() - idleMs) {
            if (entry && entry.principalId === principal.id) drop(sessionId, entry, "idle");
            return rpcError(res, 404, -32001, "Unknown MCP session. Initialize a new session.");
          }
          touch(sessionId, entry);
          return await serve(entry, req, res, principal, body);
        }
        if (req.method === "POST" && isInitializeRequest(body)) return await open(req, res, principal, body);
        return rpcError(res, 400, -32000, "Send an initialize request first, or include the Mcp-Session-Id header of an open session.");
      } catch (err) {
        options.logger.error({ err: describeError(err) }, "MCP request failed");
        if (!res.headersSent) rpcError(res, 500, -32603, "Internal error while serving the MCP request; it has been logged.");
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

/** Ids of the JSON-RPC requests in a POST body (notifications and responses have none). */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: (string | number)[] = [];
  for (const m of messages) {
    if (m && typeof m === "object" && "method" in m && "id" in m) {
      const id = (m as { id: unknown }).id;
      if (typeof id === "string" || typeof id === "number") ids.push(id);
    }
  }
  return ids;
}

/** The SDK hands `req.auth` to handlers as `extra.authInfo`; the token itself stays out of it. */
function withAuth(req: IncomingMessage, principal: Principal): IncomingMessage & { auth: { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> } } {
  return Object.assign(req, { auth: { token: "", clientId: principal.id, scopes: [], extra: { principal } } });
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, id: string | number | null = null): void {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text);
}
