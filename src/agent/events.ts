import type { ContinuationResponse } from "../store/index.js";

/** The event types a session's stream carries. */
export type AgentEventType = "progress" | "step" | "partial" | "approval" | "final";

/** Events a reconnect gets again from the journal; the others are transient. */
export const REPLAYABLE_EVENTS: ReadonlySet<AgentEventType> = new Set(["step", "approval", "final"]);

/** One event of a session, in seed 004's shape; SSE and MCP progress both read these. */
export interface AgentEvent {
  type: AgentEventType;
  session_id: string;
  continuation_id: string;
  /**
   * Counted per continuation and read from its journal, so it is the same
   * after a restart: a `step` has the position of the journal line it comes
   * from, `final` the position after the last line. A transient event
   * carries the position of the line it follows.
   */
  seq: number;
  ts: number;
  payload: {
    message?: string;
    /** `number` is the model step the event belongs to, as journaled: it carries on after a resume. */
    step?: { type: string; number: number; detail: unknown };
    partial_response?: string;
    final_response?: ContinuationResponse;
    /** On `final`: the status the continuation ended in. */
    status?: string;
    /**
     * On `approval`: the exact call that waits for a person's yes, and, once
     * they answered, `decision` (approve, deny, or expired when no one did).
     */
    approval?: { approval_id: string; service?: string; targets?: string[]; data?: Record<string, unknown>; expires_at?: string; decision?: string; reason?: string };
  };
}

export type AgentEventListener = (event: AgentEvent) => void;

/** The SSE id of a replayable event: `{continuation_id}:{seq}`. */
export const eventId = (event: Pick<AgentEvent, "continuation_id" | "seq">): string => `${event.continuation_id}:${event.seq}`;

/** Reads an SSE `Last-Event-ID`; undefined when it is not one of ours. */
export function parseEventId(id: string | undefined): { continuationId: string; seq: number } | undefined {
  const match = id ? /^([0-9A-HJKMNP-TV-Z]{26}):(\d{1,9})$/i.exec(id.trim()) : null;
  return match ? { continuationId: match[1]!.toUpperCase(), seq: Number(match[2]) } : undefined;
}

/**
 * The in-process event stream. Listeners subscribe to one session; a
 * listener that throws is removed rather than allowed to break the turn.
 */
export class AgentEvents {
  readonly #listeners = new Map<string, Set<AgentEventListener>>();

  constructor(private readonly now: () => number) {}

  emit(event: Omit<AgentEvent, "ts">): void {
    const listeners = this.#listeners.get(event.session_id);
    if (!listeners) return;
    const full: AgentEvent = { ...event, ts: this.now() };
    for (const listener of [...listeners]) {
      try {
        listener(full);
      } catch {
        listeners.delete(listener);
      }
    }
  }

  /** Listeners of one session now. */
  count(sessionId: string): number {
    return this.#listeners.get(sessionId)?.size ?? 0;
  }

  /** Returns the function that unsubscribes. */
  subscribe(sessionId: string, listener: AgentEventListener): () => void {
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(sessionId);
    };
  }
}
