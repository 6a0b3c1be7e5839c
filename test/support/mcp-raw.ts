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
  /** Edits the request's JSON text before it is sent, for what JSON.stringify cannot write (a whole number as `5.0`, as Python's json does for a float). */
  rewrite?: (json: string) => string;
}): Promise<RpcAnswer<R>> {
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw-tests", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": args.capabilities ?? {},
  };
  return post<R>(args.url, args.token, {
    headers: { "mcp-protocol-version": MODERN, "mcp-method": args.method, ...(args.name ? { "mcp-name": args.name } : {}) },
    body: { jsonrpc: "2.0", id: nextId++, method: args.method, params: { ...args.params, _meta: envelope } },
    ...(args.rewrite ? { rewrite: args.rewrite } : {}),
  });
}

/** A 2025-11-25 request sent by hand, after no initialize at all: the SDK's stateless path needs none. */
export async function legacyRequest<R = Record<string, unknown>>(args: { url: string; token: string; method: string; params?: Record<string, unknown> }): Promise<RpcAnswer<R>> {
  return post<R>(args.url, args.token, {
    headers: { "mcp-protocol-version": "2025-11-25" },
    body: { jsonrpc: "2.0", id: nextId++, method: args.method, params: args.params ?? {} },
  });
}

async function post<R>(url: string, token: string, request: { headers: Record<string, string>; body: unknown; rewrite?: (json: string) => string }): Promise<RpcAnswer<R>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...request.headers },
    body: (request.rewrite ?? ((json: string) => json))(JSON.stringify(request.body)),
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

/**
 * A 2026-07-28 `subscriptions/listen` kept open: its messages as they arrive,
 * and `close()` to leave. `ended` resolves when the server ends the stream.
 */
export async function openListen(args: { url: string; token: string; notifications: Record<string, unknown>; capabilities?: Record<string, unknown> }) {
  const id = nextId++;
  const leave = new AbortController();
  const res = await fetch(args.url, {
    method: "POST",
    signal: leave.signal,
    headers: { authorization: `Bearer ${args.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { notifications: args.notifications, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": args.capabilities ?? {} } },
    }),
  });
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  const ended = (async () => {
    if (!res.body || !res.headers.get("content-type")?.startsWith("text/event-stream")) {
      messages.push(JSON.parse(await res.text()) as Record<string, unknown>);
      return;
    }
    let buffered = "";
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        const frames = buffered.split("\n\n");
        buffered = frames.pop() ?? "";
        messages.push(...sseMessages(frames.join("\n\n")));
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by close().
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      for (const wake of waiters) wake();
    });
  let done = false;
  void ended.then(() => (done = true));
  /** Waits until a message matches, or the stream ends; fails after 15 s. */
  const waitFor = async (match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (done || Date.now() > deadline) throw new Error(`no such message; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        setTimeout(wake, 200);
      });
    }
  };
  return { id, status: res.status, messages, waitFor, ended, close: () => leave.abort() };
}

/** Client capabilities that declare form elicitation, so a call may be answered with an approval form to fill in and retry. */
export const DECLARES_ELICITATION = { elicitation: { form: {} } };
