import type { ContinuationResponse } from "../store/index.js";

/** One event of a session, in seed 004's shape; SSE and MCP progress both read these. */
export interface AgentEvent {
  type: "progress" | "step" | "partial" | "final";
  session_id: string;
  continuation_id: string;
  /** Increasing per program run, so a listener can tell order and gaps. */
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
  };
}

export type AgentEventListener = (event: AgentEvent) => void;

/**
 * The in-process event stream. Listeners subscribe to one session; a
 * listener that throws is removed rather than allowed to break the turn.
 */
export class AgentEvents {
  #seq = 0;
  readonly #listeners = new Map<string, Set<AgentEventListener>>();

  constructor(private readonly now: () => number) {}

  emit(event: Omit<AgentEvent, "seq" | "ts">): void {
    const full: AgentEvent = { ...event, seq: ++this.#seq, ts: this.now() };
    const listeners = this.#listeners.get(event.session_id);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(full);
      } catch {
        listeners.delete(listener);
      }
    }
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
