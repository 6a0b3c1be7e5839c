import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { classifyInboundRequest, createMcpHandler } from "@modelcontextprotocol/server";
import type { Logger, Principal } from "../shared/index.js";
import { createPerPrincipalLimit, describeError } from "../shared/index.js";
import type { AgentTasks, ToolRegistry } from "../tools/index.js";
import { createApprovalElicitation, createApprovalStateCodec } from "./approvals/index.js";
import type { PromptSource } from "./prompts.js";
import { createMcpServer, type ServerInfo } from "./server.js";
import { createTaskAdapter, declaresTasks, listenTaskIds, serveTaskListen, tasksNotDeclared } from "./tasks/index.js";
import { toWebRequest, writeWebResponse } from "./web-bridge.js";

export interface McpEndpoint {
  /** Serves one request on `/mcp` for an authenticated caller; `body` is the parsed JSON of a POST. */
  handle(req: IncomingMessage, res: ServerResponse, principal: Principal, body: unknown): Promise<void>;
  /** Requests `principalId` has running now. */
  inFlight(principalId: string): number;
  /** Ends every running request and open stream; later requests get 503. */
  close(): Promise<void>;
}

export interface McpEndpointOptions {
  registry: ToolRegistry;
  info: ServerInfo;
  logger: Logger;
  /** Requests one principal may have running at once; more are answered 429 (default 32). */
  maxInFlightPerPrincipal?: number;
  /** Agent turns as MCP tasks; without it no task is offered. `ttlMs` is how long finished turns are kept. */
  tasks?: { agent: AgentTasks; ttlMs: number; pollIntervalMs?: number };
  /**
   * The HMAC key (32 bytes or more) that signs the `requestState` of approvals
   * asked by elicitation. Kept across restarts, so a person can answer after
   * one; without it a key is made for this process alone.
   */
  requestStateKey?: Uint8Array;
  /** The personas, served as prompts; without it no prompt is offered. */
  prompts?: PromptSource;
}

/** How often a client is asked to poll a task: model steps take seconds. */
const TASK_POLL_INTERVAL_MS = 1_000;

/** The protocol revision the SDK serves natively; the only one a task listen can be. */
const MODERN_PROTOCOL = "2026-07-28";

/** Seconds a refused caller is told to wait: running tool calls usually end within that. */
const RETRY_AFTER_S = 1;

/**
 * `/mcp` on the MCP SDK: 2026-07-28 requests are served natively (no
 * protocol session), and 2025 clients that start with `initialize` through
 * the SDK's stateless legacy path. Every request gets its own server
 * instance, so nothing a caller does outlives its request; what one caller
 * can hold at once is bounded by its requests in flight.
 */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { logger } = options;
  const limit = createPerPrincipalLimit(options.maxInFlightPerPrincipal ?? 32);
  const tasks = options.tasks
    ? createTaskAdapter({ tasks: options.tasks.agent, timing: { ttlMs: options.tasks.ttlMs, pollIntervalMs: options.tasks.pollIntervalMs ?? TASK_POLL_INTERVAL_MS } })
    : undefined;
  // Approvals are answered through the agent's turns, so they come with tasks.
  const approvals = options.tasks
    ? createApprovalElicitation({ agent: options.tasks.agent, registry: options.registry, codec: createApprovalStateCodec({ key: options.requestStateKey ?? randomBytes(32) }) })
    : undefined;
  const handler = createMcpHandler((ctx) => createMcpServer({ registry: options.registry, info: options.info, logger, era: ctx.era, ...(tasks ? { tasks } : {}), ...(approvals ? { approvals } : {}), ...(options.prompts ? { prompts: options.prompts } : {}) }), {
    // Reporting only: the SDK has already answered the caller with a JSON-RPC error.
    onerror: (err) => logger.debug({ err: describeError(err) }, "MCP request refused or failed inside the SDK"),
  });
  // Clients listening on subscriptions/listen hear that the personas changed.
  const stopPromptNotices = options.prompts?.registry.onChange(() => handler.notify.promptsChanged());
  const running = new Set<AbortController>();
  // Principals refused since they last had nothing running: a flood is one log line, not one per request.
  const refused = new Set<string>();
  let closing = false;
  // Ends task listen streams gracefully, with their result, when the program stops.
  const shutdown = new AbortController();

  return {
    inFlight: (principalId) => limit.count(principalId),
    async handle(req, res, principal, body) {
      if (closing) return rpcError(res, { status: 503, message: "HA Agent is shutting down. Reconnect in a moment.", id: requestId(body) });
      const release = limit.tryEnter(principal.id);
      if (!release) {
        if (!refused.has(principal.id)) logger.warn({ principal: principal.id, limit: limit.perPrincipal }, `${principal.name} has ${limit.perPrincipal} MCP requests running at once; more are refused until some end`);
        refused.add(principal.id);
        res.setHeader("Retry-After", String(RETRY_AFTER_S));
        return rpcError(res, {
          status: 429,
          message: `${principal.name} already has ${limit.perPrincipal} MCP requests running, the most one caller may have at once. Wait for some to finish, then retry.`,
          id: requestId(body),
        });
      }
      const abort = new AbortController();
      running.add(abort);
      const onClose = () => {
        if (!res.writableFinished) abort.abort();
      };
      res.once("close", onClose);
      try {
        const method = methodOf(body);
        if (method === "initialize" || method === "server/discover") logger.info({ principal: principal.id, method }, `MCP client connected as ${principal.name}`);
        const authInfo = { token: "", clientId: principal.id, scopes: [], extra: { principal } };
        const taskIds = tasks && method === "subscriptions/listen" ? listenTaskIds(body) : undefined;
        // The SDK owns subscriptions/listen but cannot carry task ids; a listen that asks for them is ours, checked as the SDK checks one.
        if (tasks && taskIds) {
          const refusal = listenRefusal(req, body);
          if (refusal) return rpcError(res, { ...refusal, id: requestId(body) });
          const response = await serveTaskListen({ adapter: tasks, principal, id: requestId(body) ?? 0, taskIds, serverInfo: { ...options.info, title: "HA Agent" }, signal: abort.signal, shutdown: shutdown.signal });
          return await writeWebResponse(res, response, abort.signal);
        }
        const response = await handler.fetch(toWebRequest(req, abort.signal), { authInfo, ...(body === undefined ? {} : { parsedBody: body }) });
        await writeWebResponse(res, response, abort.signal);
      } catch (err) {
        logger.error({ err: describeError(err) }, "MCP request failed");
        if (!res.headersSent) rpcError(res, { status: 500, code: -32603, message: "Internal error while serving the MCP request; it has been logged.", id: requestId(body) });
        else res.end();
      } finally {
        res.off("close", onClose);
        running.delete(abort);
        release();
        if (limit.count(principal.id) === 0) refused.delete(principal.id);
      }
    },
    async close() {
      closing = true;
      stopPromptNotices?.();
      shutdown.abort();
      for (const abort of running) abort.abort();
      await handler.close();
    },
  };
}

/**
 * The SDK's refusals of a 2026-07-28 request, for a task listen it never
 * sees: its own classification (envelope, header cross-checks), the
 * supported version, the standard headers' presence, then the extension's
 * -32021 for a client that did not declare tasks.
 */
function listenRefusal(req: IncomingMessage, body: unknown): { status: number; code: number; message: string; data?: unknown } | undefined {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === "string" ? { [name === "mcp-protocol-version" ? "protocolVersionHeader" : name === "mcp-method" ? "mcpMethodHeader" : "mcpNameHeader"]: value } : {};
  };
  const route = classifyInboundRequest({ httpMethod: "POST", ...header("mcp-protocol-version"), ...header("mcp-method"), ...header("mcp-name"), body });
  if (route.kind === "reject") return { status: route.httpStatus, code: route.code, message: route.message, ...(route.data !== undefined ? { data: route.data } : {}) };
  const envelope = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const version = envelope?.["io.modelcontextprotocol/protocolVersion"];
  if (version !== MODERN_PROTOCOL) {
    const requested = typeof version === "string" ? version : "unknown";
    return { status: 400, code: -32022, message: `Unsupported protocol version: ${requested}`, data: { supported: [MODERN_PROTOCOL], requested } };
  }
  const versionMissing = `the body envelope names protocol version ${version} but the required MCP-Protocol-Version header is absent`;
  const methodMissing = "the body names method subscriptions/listen but the required Mcp-Method header is absent";
  if (req.headers["mcp-protocol-version"] === undefined) return { status: 400, code: -32020, message: `Bad Request: the request headers and body disagree: ${versionMissing}`, data: { mismatch: { header: "(missing)", body: versionMissing } } };
  if (req.headers["mcp-method"] === undefined) return { status: 400, code: -32020, message: `Bad Request: the request headers and body disagree: ${methodMissing}`, data: { mismatch: { header: "(missing)", body: methodMissing } } };
  if (!declaresTasks(envelope)) {
    const error = tasksNotDeclared("Task status notifications");
    return { status: 400, code: error.code, message: error.message, data: error.data };
  }
  return undefined;
}

function methodOf(body: unknown): string | undefined {
  const method = body && typeof body === "object" && !Array.isArray(body) ? (body as { method?: unknown }).method : undefined;
  return typeof method === "string" ? method : undefined;
}

/** The id of a single JSON-RPC request, so a refusal answers it; null otherwise. */
function requestId(body: unknown): string | number | null {
  const id = body && typeof body === "object" && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Refusals before the SDK sees the request, in the SDK's own error shape. */
function rpcError(res: ServerResponse, error: { status: number; code?: number; message: string; data?: unknown; id: string | number | null }): void {
  const text = JSON.stringify({ jsonrpc: "2.0", error: { code: error.code ?? -32000, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) }, id: error.id });
  res.writeHead(error.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
