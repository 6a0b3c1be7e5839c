/** The MCP protocol revision spoken natively; the same as stack.ts's MODERN_PROTOCOL. */
const MODERN = "2026-07-28";

/** Client capabilities that declare the tasks extension, as a 2026-07-28 request carries them. */
export const DECLARES_TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcNotification {
  method: string;
  params: Record<string, unknown>;
}

/** One answer to a raw JSON-RPC request: the HTTP status, the result or the error, and any notifications streamed before it. */
export interface RpcAnswer<R = Record<string, unknown>> {
  status: number;
  result?: R;
  error?: RpcError;
  notifications: RpcNotification[];
}

let nextId = 1;

/**
 * A 2026-07-28 request sent by hand, as the v2 client would send it (which
 * cannot read task results): the per-request `_meta` envelope, and the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers.
 */
export async function modernRequest<R = Record<string, unknown>>(args: {
  url: string;
  token: string;
  method: string;
  params?: Record<string, unknown>;
  /** `Mcp-Name`: the tool's name for tools/call, the task id for tasks/get, tasks/update and tasks/cancel. */
  name?: string;
  capabilities?: Record<string, unknown>;
}): Promise<RpcAnswer<R>> {
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw-tests", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": args.capabilities ?? {},
  };
  return post<R>(args.url, args.token, {
    headers: { "mcp-protocol-version": MODERN, "mcp-method": args.method, ...(args.name ? { "mcp-name": args.name } : {}) },
    body: { jsonrpc: "2.0", id: nextId++, method: args.method, params: { ...args.params, _meta: envelope } },
  });
}

/** A 2025-11-25 request sent by hand, after no initialize at all: the SDK's stateless path needs none. */
export async function legacyRequest<R = Record<string, unknown>>(args: { url: string; token: string; method: string; params?: Record<string, unknown> }): Promise<RpcAnswer<R>> {
  return post<R>(args.url, args.token, {
    headers: { "mcp-protocol-version": "2025-11-25" },
    body: { jsonrpc: "2.0", id: nextId++, method: args.method, params: args.params ?? {} },
  });
}

async function post<R>(url: string, token: string, request: { headers: Record<string, string>; body: unknown }): Promise<RpcAnswer<R>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...request.headers },
    body: JSON.stringify(request.body),
  });
  const text = await res.text();
  const messages = res.headers.get("content-type")?.startsWith("text/event-stream") ? sseMessages(text) : text ? [JSON.parse(text) as Record<string, unknown>] : [];
  const notifications = messages.filter((m) => typeof m.method === "string" && m.id === undefined) as unknown as RpcNotification[];
  const answer = messages.find((m) => "result" in m || "error" in m) as { result?: R; error?: RpcError } | undefined;
  return { status: res.status, ...(answer?.result ? { result: answer.result } : {}), ...(answer?.error ? { error: answer.error } : {}), notifications };
}

/** The JSON messages of an event stream's `data:` lines. */
function sseMessages(text: string): Record<string, unknown>[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((frame) =>
      frame
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}
