import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { HttpStatusError } from "./errors.js";

/**
 * homeassistant/components/mcp/coordinator.py `mcp_client`: one MCP session
 * per use over streamable HTTP, with `Authorization: Bearer <token>` when the
 * entry has one. The python `mcp` package HA pins (mcp==1.26.0, core PR
 * #161545) speaks protocol revision 2025-11-25, as @modelcontextprotocol/sdk
 * 1.32 does; its ClientSession announces itself as {name: "mcp", version:
 * "0.1.0"} with no client capabilities when HA passes no callbacks. On leaving
 * the `async with`, its streamable HTTP client DELETEs the session.
 */
export const HA_MCP_PROTOCOL_VERSION = "2025-11-25";
const HA_CLIENT_INFO = { name: "mcp", version: "0.1.0" };

/** What one session did on the wire, for assertions on what HA sent. */
export interface SessionWire {
  requests: { method: string; url: string; headers: Record<string, string>; body: unknown }[];
  /** The result of `initialize` as HA gets it. */
  initialize?: { protocolVersion: string | undefined; serverName: string | undefined; tools: boolean };
}

export interface McpSession {
  client: Client;
  wire: SessionWire;
}

/**
 * Opens a session, runs `use`, and closes it, whatever happens; a non-2xx
 * answer surfaces as HttpStatusError (httpx's HTTPStatusError, whose response
 * HA reads), so a 401's WWW-Authenticate header reaches `from_header`.
 */
export async function withMcpSession<T>(o: { url: string; fetch: typeof fetch; token?: string; signal?: AbortSignal; use: (session: McpSession) => Promise<T> }): Promise<T> {
  const wire: SessionWire = { requests: [] };
  let failure: { response: Response; url: string } | undefined;
  const recording = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : input.toString();
    const headers = Object.fromEntries(new Headers(init.headers));
    wire.requests.push({ method: init.method ?? "GET", url, headers, body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined });
    const signal = o.signal && init.signal ? AbortSignal.any([o.signal, init.signal]) : (o.signal ?? init.signal ?? undefined);
    const response = await o.fetch(input, { ...init, signal });
    // A GET that answers 405 is the server saying it offers no standalone stream, which both SDKs accept.
    if (response.status >= 400 && !(init.method === "GET" && response.status === 405)) failure ??= { response: response.clone(), url };
    return response;
  }) as typeof fetch;
  const transport = new StreamableHTTPClientTransport(new URL(o.url), { fetch: recording, requestInit: { headers: o.token ? { authorization: `Bearer ${o.token}` } : {} } });
  const client = new Client(HA_CLIENT_INFO, { capabilities: {} });
  try {
    try {
      await client.connect(transport, { signal: o.signal });
    } catch (error) {
      if (failure) throw new HttpStatusError(failure.response, failure.url);
      throw error;
    }
    wire.initialize = { protocolVersion: transport.protocolVersion, serverName: client.getServerVersion()?.name, tools: Boolean(client.getServerCapabilities()?.tools) };
    return await o.use({ client, wire });
  } finally {
    if (transport.sessionId) await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

/** coordinator.py `TIMEOUT`: each tools/list and each call, session included, must finish within it. */
export const TIMEOUT_MS = 10_000;

export class McpTimeout extends Error {}

/** `async with asyncio.timeout(TIMEOUT)`: aborts the work and fails once the limit passes. */
export async function withinTimeout<T>(what: string, work: (signal: AbortSignal) => Promise<T>, ms = TIMEOUT_MS): Promise<{ value: T; ms: number }> {
  const controller = new AbortController();
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new McpTimeout(`Timeout when ${what}: no answer within ${ms} ms`));
      reject(controller.signal.reason as Error);
    }, ms);
  });
  try {
    const value = await Promise.race([work(controller.signal), deadline]);
    return { value, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

export type { CallToolResult, ListToolsResult };
