import type { IncomingMessage, ServerResponse } from "node:http";
import type { AgentEvent } from "../../agent/index.js";
import { createPerPrincipalLimit, type Principal } from "../../shared/index.js";
import { sendJson } from "../respond.js";
import { SseStream, type SseStreamOptions } from "./sse-stream.js";

/** What the events route needs from the agent: a subscription to one of the caller's sessions. */
export interface SessionEventSource {
  /** Undefined when the principal has no such session; otherwise the function that unsubscribes. */
  watch(principal: Principal, args: { sessionId: string; lastEventId?: string; listener: (event: AgentEvent) => void }): Promise<(() => void) | undefined>;
}

export interface EventsRouteOptions {
  source: SessionEventSource;
  maxStreamsPerPrincipal?: number;
  stream?: Omit<SseStreamOptions, "onClose">;
}

/** Streams one principal may hold open at once. */
export const MAX_STREAMS_PER_PRINCIPAL = 8;

/** Seconds a caller at the stream cap is told to wait. */
const RETRY_AFTER_S = 5;

/** `/events/{session_id}`; the id is a ULID. */
export const EVENTS_PATH = /^\/events\/([0-9A-HJKMNP-TV-Z]{26})\/?$/i;

/**
 * Serves `GET /events/{session_id}` to an authenticated caller: the
 * session's events as SSE. A session that is not the caller's answers
 * exactly as an unknown one does.
 */
export function createEventsRoute(options: EventsRouteOptions) {
  const limit = createPerPrincipalLimit(options.maxStreamsPerPrincipal ?? MAX_STREAMS_PER_PRINCIPAL);
  const open = new Set<SseStream>();
  return {
    async handle(req: IncomingMessage, res: ServerResponse, principal: Principal, sessionId: string): Promise<void> {
      if (req.method !== "GET") {
        res.setHeader("allow", "GET");
        return sendJson(res, 405, { error: "method_not_allowed", message: "Read a session's events with GET." });
      }
      const release = limit.tryEnter(principal.id);
      if (!release) {
        res.setHeader("Retry-After", String(RETRY_AFTER_S));
        return sendJson(res, 429, { error: "too_many_streams", message: `${principal.name} already has ${limit.perPrincipal} event streams open, the most one caller may have. Close one, then retry.` });
      }
      const lastEventId = header(req, "last-event-id");
      // Replayed events arrive before `watch` returns: they wait here until the stream is open.
      const pending: AgentEvent[] = [];
      const live: { stream?: SseStream } = {};
      let unsubscribe: (() => void) | undefined;
      try {
        unsubscribe = await options.source.watch(principal, { sessionId: sessionId.toUpperCase(), ...(lastEventId ? { lastEventId } : {}), listener: (event) => (live.stream ? live.stream.send(event) : pending.push(event)) });
      } catch (err) {
        release();
        throw err;
      }
      if (!unsubscribe) {
        release();
        return sendJson(res, 404, { error: "not_found", message: `You have no session ${sessionId}. Start one with ha_agent_start_session; its stream_url is where its events are.` });
      }
      const done = unsubscribe;
      const stream = new SseStream(res, {
        ...options.stream,
        onClose: () => {
          done();
          release();
          open.delete(stream);
        },
      });
      live.stream = stream;
      open.add(stream);
      for (const event of pending.splice(0)) stream.send(event);
      if (res.closed) stream.close("the reader left");
    },
    /** Ends every open stream, saying why. */
    closeAll(reason: string): void {
      for (const stream of [...open]) stream.close(reason);
    },
    /** Streams open now. */
    get openCount(): number {
      return open.size;
    },
  };
}

export type EventsRoute = ReturnType<typeof createEventsRoute>;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
