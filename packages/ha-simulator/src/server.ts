import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { SimConnection } from "./connection.js";
import type { ServerContext } from "./context.js";
import { handleAuthRequest } from "./auth/index.js";
import { handleRest } from "./rest.js";
import { demoLoginHint } from "./users.js";

/**
 * The listening part: one HTTP server on one port, serving REST and
 * upgrading `/api/websocket`. It can stop and listen again on the same port,
 * which is how a restart is simulated.
 */
export class SimServer {
  readonly connections = new Set<SimConnection>();
  private http: Server | undefined;
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  /** REST requests held back while the simulator is frozen. */
  private held: (() => void)[] = [];
  /** REST answers held back by the `slow` fault. */
  private readonly delayed = new Set<NodeJS.Timeout>();

  constructor(private readonly ctx: ServerContext) {}

  async listen(port: number, host: string): Promise<number> {
    const http = createServer((req, res) => this.request(req, res));
    http.on("upgrade", (req, socket, head) => this.upgrade(req, socket, head));
    this.http = http;
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, host, () => {
        http.off("error", reject);
        resolve();
      });
    });
    const address = http.address();
    if (address === null || typeof address === "string") throw new Error("HTTP server has no TCP address");
    return address.port;
  }

  /** Drops every WebSocket without a close frame, like a network failure. */
  dropAll(): void {
    for (const c of [...this.connections]) c.close(true);
  }

  /** Stops listening and cuts every connection. */
  async stop(): Promise<void> {
    this.dropAll();
    const http = this.http;
    this.http = undefined;
    this.held = [];
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    if (!http) return;
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  }

  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const run of held) run();
  }

  private request(req: IncomingMessage, res: ServerResponse): void {
    const run = () => {
      if (res.destroyed) return;
      try {
        const hint = demoLoginHint(this.ctx.users);
        if (handleAuthRequest({ auth: this.ctx.auth, req, res, ...(hint ? { hint } : {}) })) return;
        handleRest(this.ctx, req, res);
      } catch (err) {
        this.ctx.logger.error({ err }, "REST request failed");
        if (!res.headersSent) res.writeHead(500).end("500 Internal Server Error");
      }
    };
    const delayed = () => {
      if (this.ctx.faults.slowMs <= 0) return run();
      const timer = setTimeout(() => {
        this.delayed.delete(timer);
        run();
      }, this.ctx.faults.slowMs);
      this.delayed.add(timer);
    };
    if (this.ctx.faults.frozen) this.held.push(delayed);
    else delayed();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/api/websocket") {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new SimConnection(ws, this.ctx, () => this.connections.delete(conn));
      this.connections.add(conn);
    });
  }
}
