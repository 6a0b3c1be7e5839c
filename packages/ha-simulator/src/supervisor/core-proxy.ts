import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer, type RawData } from "ws";

/** The simulated Home Assistant the proxy forwards to, and the token the Supervisor holds for it. */
export interface CoreTarget {
  apiUrl: string;
  wsUrl: string;
  token: string;
  haVersion: () => string;
}

/** Headers the Supervisor passes on to Core (its FORWARD_HEADERS), besides the content type. */
const FORWARD_HEADERS = ["accept", "last-event-id", "mcp-session-id", "mcp-protocol-version", "x-speech-content"];
/** Command types only HA's own frontend may send; the Supervisor refuses them from add-ons. */
const DENIED_PREFIXES = ["supervisor/", "hassio/"];
const AUTH_TIMEOUT_MS = 10_000;

/**
 * `/core/api/{path}`: Core's REST API under the Supervisor's own token. The
 * caller's token must be an add-on's (Bearer or `X-Ha-Access`); anything
 * else is a bare 401, as the Supervisor answers.
 */
export async function proxyCoreRest(o: { req: IncomingMessage; res: ServerResponse; path: string; search: string; target: CoreTarget; known: (token: string) => boolean }): Promise<void> {
  const { req, res } = o;
  const bearer = req.headers.authorization;
  const token = bearer !== undefined ? (bearer.split(" ").at(-1) ?? "") : String(req.headers["x-ha-access"] ?? "");
  if (!o.known(token)) {
    res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8" }).end("401: Unauthorized");
    return;
  }
  if (/^hassio(\/|_)/.test(o.path)) {
    res.writeHead(403, { "Content-Type": "text/plain; charset=utf-8" }).end("403: Forbidden");
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers({ authorization: `Bearer ${o.target.token}` });
  for (const name of [...FORWARD_HEADERS, "content-type"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const method = req.method ?? "GET";
  try {
    const upstream = await fetch(`${o.target.apiUrl}/${o.path}${o.search}`, { method, headers, ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }) });
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { "Content-Type": upstream.headers.get("content-type") ?? "application/octet-stream", "Content-Length": body.length }).end(body);
  } catch {
    // Core is down: the Supervisor answers 502.
    if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain; charset=utf-8" }).end("502: Bad Gateway");
  }
}

/**
 * `/core/websocket`: the Supervisor runs the auth phase itself (an add-on's
 * token, sent as `access_token`), answers `auth_ok`, then opens its own
 * authenticated connection to Core and relays messages both ways. What the
 * add-on sends before Core's side is ready waits, in order.
 */
export function createCoreSocketProxy(o: { target: CoreTarget; known: (token: string) => boolean }) {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const open = new Set<WebSocket>();

  function relay(client: WebSocket): void {
    const pending: string[] = [];
    const upstream = new WebSocket(o.target.wsUrl, { perMessageDeflate: false });
    let ready = false;
    const closeBoth = () => {
      client.close();
      upstream.close();
    };
    client.on("message", (data: RawData) => {
      const text = data.toString();
      const denied = deniedCommand(text);
      if (denied) {
        client.send(JSON.stringify({ id: denied.id, type: "result", success: false, error: { code: "unauthorized", message: "Unauthorized" } }));
        return;
      }
      if (ready) upstream.send(text);
      else pending.push(text);
    });
    client.on("close", closeBoth);
    open.add(upstream);
    upstream.on("message", (data: RawData) => {
      const text = data.toString();
      if (ready) {
        client.send(text);
        return;
      }
      const message = JSON.parse(text) as { type?: string };
      if (message.type === "auth_required") upstream.send(JSON.stringify({ type: "auth", access_token: o.target.token }));
      else if (message.type === "auth_ok") {
        ready = true;
        for (const line of pending.splice(0)) upstream.send(line);
      } else closeBoth();
    });
    upstream.on("close", () => {
      open.delete(upstream);
      client.close();
    });
    upstream.on("error", closeBoth);
  }

  wss.on("connection", (client: WebSocket) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.terminate());
    client.send(JSON.stringify({ type: "auth_required", ha_version: o.target.haVersion() }));
    const timer = setTimeout(() => client.close(), AUTH_TIMEOUT_MS);
    client.once("message", (data: RawData) => {
      clearTimeout(timer);
      let token = "";
      try {
        const auth = JSON.parse(data.toString()) as { access_token?: unknown; api_password?: unknown };
        token = String(auth.api_password ?? auth.access_token ?? "");
      } catch {
        // an unreadable auth message is an invalid one
      }
      if (!o.known(token)) {
        client.send(JSON.stringify({ type: "auth_invalid", message: "Invalid access" }));
        client.close();
        return;
      }
      client.send(JSON.stringify({ type: "auth_ok", ha_version: o.target.haVersion() }));
      relay(client);
    });
  });

  return {
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
    /** Cuts every relayed connection, on both sides. */
    closeAll(): void {
      for (const ws of open) ws.terminate();
      open.clear();
    },
  };
}

function deniedCommand(text: string): { id: unknown } | undefined {
  try {
    const message = JSON.parse(text) as { type?: unknown; id?: unknown };
    return typeof message.type === "string" && DENIED_PREFIXES.some((p) => (message.type as string).startsWith(p)) ? { id: message.id } : undefined;
  } catch {
    return undefined;
  }
}
