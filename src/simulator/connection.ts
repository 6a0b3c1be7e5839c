import { WebSocket, type RawData } from "ws";
import { CommandError, type CommandMessage } from "./commands/command.js";
import type { ServerContext } from "./context.js";
import type { SimUser } from "./users.js";

/** HA drops a client that lets this many messages pile up. */
const MAX_PENDING_MESSAGES = 4096;
/** The same limit for a client that stopped reading: bytes the socket could not hand to the kernel yet. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/**
 * One WebSocket client, from `auth_required` to close: HA's auth phase, then
 * the command phase with its id rules, subscriptions and coalesced frames.
 */
export class SimConnection {
  user: SimUser | undefined;
  /** The token this connection authenticated with. */
  token: string | undefined;
  private lastId = 0;
  private coalesce = false;
  private queue: string[] = [];
  private flushScheduled = false;
  private authTimer: NodeJS.Timeout | undefined;
  private readonly subscriptions = new Map<number, () => void>();
  /** Messages held back by the `slow` fault; cleared on close so no timer outlives the socket. */
  private readonly delayed = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    readonly ctx: ServerContext,
    private readonly onClose: () => void,
  ) {
    socket.on("message", (data, isBinary) => this.receive(data, isBinary));
    socket.on("close", () => this.cleanup());
    socket.on("error", () => this.cleanup());
    this.sendMessage({ type: "auth_required", ha_version: ctx.haVersion });
    this.armAuthTimer();
  }

  private armAuthTimer(): void {
    this.authTimer = setTimeout(() => {
      // A frozen (half-open) server closes nothing either.
      if (this.ctx.faults.frozen) return this.armAuthTimer();
      this.ctx.logger.debug("auth timeout, closing");
      this.close();
    }, this.ctx.authTimeoutMs);
  }

  get authenticated(): boolean {
    return this.user !== undefined;
  }

  sendResult(id: number, result: unknown): void {
    this.sendRaw(`{"id":${id},"type":"result","success":true,"result":${JSON.stringify(result ?? null)}}`);
  }

  sendError(id: number, code: string, message: string): void {
    this.sendMessage({ id, type: "result", success: false, error: { code, message } });
  }

  /** An event message whose `event` member is already serialised. */
  sendEventJson(id: number, eventJson: string): void {
    this.sendRaw(`{"id":${id},"type":"event","event":${eventJson}}`);
  }

  sendMessage(message: object): void {
    this.sendRaw(JSON.stringify(message));
  }

  sendRaw(json: string): void {
    if (this.closed || this.ctx.faults.frozen) return;
    this.ctx.counters.messagesSent++;
    const slow = this.ctx.faults.slowMs;
    if (slow <= 0) {
      this.enqueue(json);
      return;
    }
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      this.enqueue(json);
    }, slow);
    this.delayed.add(timer);
  }

  addSubscription(id: number, unsubscribe: () => void): void {
    this.subscriptions.set(id, unsubscribe);
  }

  removeSubscription(id: number): boolean {
    const unsub = this.subscriptions.get(id);
    if (!unsub) return false;
    this.subscriptions.delete(id);
    unsub();
    return true;
  }

  /** Closes abruptly, like a dropped TCP connection, when `abrupt` is set. */
  close(abrupt = false): void {
    this.cleanup();
    if (abrupt) this.socket.terminate();
    else if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close();
  }

  private enqueue(json: string): void {
    if (this.closed) return;
    this.queue.push(json);
    if (this.queue.length > MAX_PENDING_MESSAGES) {
      this.ctx.logger.warn({ pending: this.queue.length }, "client unable to keep up with pending messages, closing");
      this.close();
      return;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const pending = this.queue;
    this.queue = [];
    if (this.closed || this.socket.readyState !== WebSocket.OPEN || pending.length === 0) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ctx.logger.warn({ buffered: this.socket.bufferedAmount }, "client stopped reading, closing");
      this.close(true);
      return;
    }
    // Everything queued in the same tick goes out as one JSON array frame, like HA does once coalescing is on.
    if (this.coalesce && pending.length > 1) this.socket.send(`[${pending.join(",")}]`);
    else for (const json of pending) this.socket.send(json);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed || this.ctx.faults.frozen) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(isBinary ? "" : data.toString());
    } catch {
      // HA disconnects a client that sends anything but JSON.
      this.ctx.logger.debug("received invalid JSON, closing");
      this.close();
      return;
    }
    if (!this.user) {
      this.authenticate(parsed);
      return;
    }
    // HA accepts a list of commands in one frame as well.
    for (const msg of Array.isArray(parsed) ? parsed : [parsed]) this.handleCommand(msg);
  }

  private authenticate(msg: unknown): void {
    const record = typeof msg === "object" && msg !== null ? (msg as Record<string, unknown>) : undefined;
    if (record?.type !== "auth" || typeof record.access_token !== "string") {
      this.rejectAuth("Auth message incorrectly formatted: expected {type: \"auth\", access_token: string}");
      return;
    }
    const user = this.ctx.faults.refuseAuth ? undefined : this.ctx.users.byToken(record.access_token);
    if (!user) {
      this.rejectAuth("Invalid access token or password");
      return;
    }
    clearTimeout(this.authTimer);
    this.user = user;
    this.token = record.access_token;
    this.sendMessage({ type: "auth_ok", ha_version: this.ctx.haVersion });
  }

  private rejectAuth(message: string): void {
    clearTimeout(this.authTimer);
    this.sendMessage({ type: "auth_invalid", message });
    // Let the frame leave before closing, as HA does.
    setImmediate(() => {
      this.flush();
      this.close();
    });
  }

  private handleCommand(raw: unknown): void {
    const msg = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
    const id = msg?.id;
    const type = msg?.type;
    if (!msg || typeof id !== "number" || !Number.isInteger(id) || id === 0 || typeof type !== "string" || type === "") {
      // HA echoes whatever id it got (null when there was none), or 0 for a non-object.
      // A negative id passes this check there and is refused below as id_reuse.
      this.sendMessage({ id: msg ? (id ?? null) : 0, type: "result", success: false, error: { code: "invalid_format", message: "Message incorrectly formatted." } });
      return;
    }
    if (id <= this.lastId) {
      this.sendError(id, "id_reuse", "Identifier values have to increase.");
      return;
    }
    if (type === "supported_features") {
      this.lastId = id;
      const features = msg.features as Record<string, unknown> | undefined;
      this.coalesce = features?.coalesce_messages === 1 || features?.coalesce_messages === true;
      this.sendResult(id, null);
      return;
    }
    const command = this.ctx.commands.get(type);
    if (!command) {
      // HA does not advance its last id for an unknown command.
      this.sendError(id, "unknown_command", "Unknown command.");
      return;
    }
    this.lastId = id;
    if (command.adminOnly && !this.user?.isAdmin) {
      this.sendError(id, "unauthorized", "Unauthorized.");
      return;
    }
    try {
      const done = command.handle(this, msg as CommandMessage);
      if (done instanceof Promise) done.catch((err: unknown) => this.fail(id, err));
    } catch (err) {
      this.fail(id, err);
    }
  }

  private fail(id: number, err: unknown): void {
    if (err instanceof CommandError) {
      this.sendError(id, err.code, err.message);
      return;
    }
    this.ctx.logger.error({ err }, "command failed");
    this.sendError(id, "unknown_error", "Unknown error.");
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.authTimer);
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    for (const unsub of this.subscriptions.values()) unsub();
    this.subscriptions.clear();
    this.queue = [];
    this.onClose();
  }
}
