import type { ServerResponse } from "node:http";
import { REPLAYABLE_EVENTS, eventId, type AgentEvent } from "../../agent/index.js";
import { redactSecrets } from "../../store/index.js";

/** A comment this often keeps proxies (ingress among them) from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * The page's one live subscription: `overview` whenever what the page shows
 * changed, and `turn` for the events of the session it has open. A slow
 * reader skips overviews (the next one supersedes them); turn events are
 * few and always written.
 */
export class ConsoleStream {
  #closed = false;
  #last = "";
  readonly #keepAlive: NodeJS.Timeout;
  readonly #onClose: () => void;

  constructor(private readonly res: ServerResponse, onClose: () => void) {
    this.#onClose = onClose;
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" });
    res.write("retry: 2000\n: connected\n\n");
    res.once("close", () => this.#end());
    this.#keepAlive = setInterval(() => res.writableNeedDrain || res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    this.#keepAlive.unref();
  }

  get closed(): boolean {
    return this.#closed;
  }

  overview(value: unknown): void {
    const text = JSON.stringify(value);
    if (this.#closed || text === this.#last || this.res.writableNeedDrain) return;
    this.#last = text;
    this.res.write(`event: overview\ndata: ${text}\n\n`);
  }

  turn(event: AgentEvent): void {
    if (this.#closed) return;
    const id = REPLAYABLE_EVENTS.has(event.type) ? `id: ${eventId(event)}\n` : "";
    // Tool arguments and results ride in step details: redacted as the store redacts.
    this.res.write(`${id}event: turn\ndata: ${JSON.stringify(redactSecrets(event))}\n\n`);
  }

  close(reason: string): void {
    if (this.#closed) return;
    this.res.end(`: closed: ${reason}\n\n`);
    this.#end();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    this.#onClose();
  }
}
