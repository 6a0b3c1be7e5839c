import { WebSocket, type RawData } from "ws";
import { checkAuthMessage } from "./auth-message.js";
import { CommandError } from "./command-error.js";
import type { Command, CommandConnection, CommandMessage, ServerContext } from "./context.js";
import type { SimUser } from "./users.js";

/**
 * HA's limits on messages waiting to be written to a client
 * (`websocket_api/const.py`, `http.py`): reaching MAX_PENDING_MSG drops the
 * client at once; staying above PENDING_MSG_PEAK for PENDING_MSG_PEAK_TIME
 * drops it too (the time is `ServerContext.pendingPeakMs`).
 */
export const MAX_PENDING_MSG = 4096;
export const PENDING_MSG_PEAK = 1024;
/**
 * HA raises aiohttp's writer limit to 1 MiB after auth: past that many bytes
 * the socket has not taken yet, its writer waits for a drain, and new messages
 * stay pending in its queue.
 */
const WRITER_LIMIT_BYTES = 1024 * 1024;

/**
 * One WebSocket client, from `auth_required` to close: HA's auth phase, then
 * the command phase with its id rules, subscriptions and coalesced frames,
 * and HA's pending-message limits for a client that does not keep up.
 */
export class SimConnection implements CommandConnection {
  user: SimUser | undefined;
  /** The token this connection authenticated with. */
  token: string | undefined;
  private lastId = 0;
  private coalesce = false;
  /** Messages not yet handed to the socket: HA's pending messages. */
  private queue: string[] = [];
  private flushScheduled = false;
  /** The socket holds more than the writer limit; messages wait until it drains. */
  private writerBlocked = false;
  private cancelPeakCheck: (() => void) | undefined;
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

  sendError(id: number, code: string, message: string, translation?: CommandError["translation"]): void {
    this.sendMessage({ id, type: "result", success: false, error: { code, message, ...translation } });
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

  /** `supported_features`: like HA, coalescing is on when the client names `coalesce_messages` at all. */
  setSupportedFeatures(features: Record<string, number>): void {
    this.coalesce = Object.hasOwn(features, "coalesce_messages");
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

  /** HA's `_send_message`: queue, drop the client at MAX_PENDING_MSG, watch the peak. */
  private enqueue(json: string): void {
    if (this.closed) return;
    this.queue.push(json);
    const pending = this.queue.length;
    if (pending >= MAX_PENDING_MSG) {
      this.ctx.logger.warn({ pending }, `client unable to keep up with pending messages: reached ${MAX_PENDING_MSG} pending messages, closing`);
      this.close();
      return;
    }
    if (pending <= PENDING_MSG_PEAK) {
      this.stopPeakCheck();
    } else if (!this.cancelPeakCheck) {
      this.cancelPeakCheck = this.ctx.schedule(this.ctx.pendingPeakMs, () => this.checkPeak());
    }
    this.scheduleFlush();
  }

  /** HA's `_check_write_peak`: still above the peak after the peak time means the client cannot keep up. */
  private checkPeak(): void {
    this.cancelPeakCheck = undefined;
    if (this.closed || this.queue.length < PENDING_MSG_PEAK) return;
    this.ctx.logger.warn(
      { pending: this.queue.length, seconds: this.ctx.pendingPeakMs / 1000 },
      `client unable to keep up with pending messages: stayed over ${PENDING_MSG_PEAK}, closing`,
    );
    this.close();
  }

  private stopPeakCheck(): void {
    this.cancelPeakCheck?.();
    this.cancelPeakCheck = undefined;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.writerBlocked) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** HA's writer: hands pending messages to the socket until it holds more than the writer limit. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.closed || this.writerBlocked || this.socket.readyState !== WebSocket.OPEN || this.queue.length === 0) return;
    const pending = this.queue;
    this.queue = [];
    // Everything pending goes out as one JSON array frame, like HA does once coalescing is on.
    if (this.coalesce && pending.length > 1) this.write(`[${pending.join(",")}]`);
    else {
      for (let i = 0; i < pending.length; i++) {
        this.write(pending[i]!);
        if (this.writerBlocked) {
          this.queue = [...pending.slice(i + 1), ...this.queue];
          break;
        }
      }
    }
    if (this.queue.length <= PENDING_MSG_PEAK) this.stopPeakCheck();
  }

  private write(frame: string): void {
    this.socket.send(frame, () => this.written());
    if (this.socket.bufferedAmount > WRITER_LIMIT_BYTES) this.writerBlocked = true;
  }

  /** A frame reached the kernel: once the socket is under the writer limit again, the writer goes on. */
  private written(): void {
    if (!this.writerBlocked || this.closed || this.socket.bufferedAmount > WRITER_LIMIT_BYTES) return;
    this.writerBlocked = false;
    if (this.queue.length > 0) this.scheduleFlush();
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
    const check = checkAuthMessage(msg);
    if (!check.ok) {
      this.rejectAuth(check.message);
      return;
    }
    const token = check.accessToken;
    const user = this.ctx.faults.refuseAuth || token === undefined ? undefined : this.ctx.auth.userForToken(token);
    if (!user) {
      this.rejectAuth("Invalid access token or password");
      return;
    }
    clearTimeout(this.authTimer);
    this.user = user;
    this.token = token;
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
    const command = this.ctx.commands.get(type);
    if (!command) {
      // HA does not advance its last id for an unknown command.
      this.sendError(id, "unknown_command", "Unknown command.");
      return;
    }
    this.lastId = id;
    const delay = this.ctx.faults.delayedCommands.get(type);
    if (delay === undefined) return this.run(command, msg as CommandMessage);
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      if (!this.closed) this.run(command, msg as CommandMessage);
    }, delay);
    this.delayed.add(timer);
  }

  private run(command: Command, msg: CommandMessage): void {
    try {
      const done = command.handle(this, msg);
      if (done instanceof Promise) done.catch((err: unknown) => this.fail(msg.id, err));
    } catch (err) {
      this.fail(msg.id, err);
    }
  }

  private fail(id: number, err: unknown): void {
    if (err instanceof CommandError) {
      this.sendError(id, err.code, err.message, err.translation);
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
    this.stopPeakCheck();
    this.queue = [];
    this.onClose();
  }
}
