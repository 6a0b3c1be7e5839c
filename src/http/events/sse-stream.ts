import type { ServerResponse } from "node:http";
import { REPLAYABLE_EVENTS, eventId, type AgentEvent } from "../../agent/index.js";

/** Events one slow reader may have waiting before it is closed; a turn's steps fit many times over. */
export const MAX_QUEUED_EVENTS = 256;
/** A comment this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const KEEP_ALIVE_MS = 15_000;

export interface SseStreamOptions {
  maxQueued?: number;
  keepAliveMs?: number;
  /** Called once when the stream ends, whoever ended it. */
  onClose?: () => void;
}

/** One event as SSE: replayable ones carry an id, so `Last-Event-ID` always names one the journal holds. */
export function formatEvent(event: AgentEvent): string {
  const id = REPLAYABLE_EVENTS.has(event.type) ? `id: ${eventId(event)}\n` : "";
  return `${id}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * A `text/event-stream` response that never holds more than a bounded
 * amount for its reader. Events are written while the socket takes them,
 * then queued; queued text of the same turn is merged into one `partial`,
 * and a reader left more than `maxQueued` events behind is closed with a
 * comment saying why (it reconnects with `Last-Event-ID` and misses nothing
 * the journal holds).
 */
export class SseStream {
  readonly #queue: AgentEvent[] = [];
  readonly #maxQueued: number;
  readonly #keepAlive: NodeJS.Timeout;
  #closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseStreamOptions = {},
  ) {
    this.#maxQueued = options.maxQueued ?? MAX_QUEUED_EVENTS;
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" });
    res.write(": connected\n\n");
    res.on("drain", () => this.#flush());
    res.once("close", () => this.#end());
    this.#keepAlive = setInterval(() => {
      if (!res.writableNeedDrain) res.write(": keep-alive\n\n");
    }, options.keepAliveMs ?? KEEP_ALIVE_MS);
    this.#keepAlive.unref();
  }

  /** Events waiting for the reader now. */
  get queued(): number {
    return this.#queue.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(event: AgentEvent): void {
    if (this.#closed) return;
    if (!this.#queue.length && !this.res.writableNeedDrain) {
      this.res.write(formatEvent(event));
      return;
    }
    const last = this.#queue.at(-1);
    if (event.type === "partial" && last?.type === "partial" && last.continuation_id === event.continuation_id) {
      // A later partial supersedes the queued one: one event with both texts, in order.
      this.#queue[this.#queue.length - 1] = { ...event, payload: { ...event.payload, partial_response: `${last.payload.partial_response ?? ""}${event.payload.partial_response ?? ""}` } };
      return;
    }
    this.#queue.push(event);
    if (this.#queue.length > this.#maxQueued) this.close(`this reader fell more than ${this.#maxQueued} events behind; reconnect with Last-Event-ID to continue`);
  }

  /** Ends the stream with a last comment that says why. */
  close(reason: string): void {
    if (this.#closed) return;
    this.#queue.length = 0;
    this.res.end(`: closed: ${reason}\n\n`);
    // A reader that never reads would keep the socket; it gets a moment to take the reason.
    setTimeout(() => this.res.destroy(), 1_000).unref();
    this.#end();
  }

  #flush(): void {
    while (this.#queue.length && !this.res.writableNeedDrain) this.res.write(formatEvent(this.#queue.shift()!));
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    this.#queue.length = 0;
    this.options.onClose?.();
  }
}
