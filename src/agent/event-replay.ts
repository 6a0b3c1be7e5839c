import { isFinalStatus, type Store } from "../store/index.js";
import { REPLAYABLE_EVENTS, type AgentEvent, type AgentEventListener, type AgentEvents } from "./events.js";
import { finalPayload } from "./execute-continuation.js";
import { stepEventsOf } from "./step-events.js";
import { storeJournal } from "./store-journal.js";

/** Where a replay starts: after `seq` of `continuationId`. */
export interface ReplayFrom {
  continuationId: string;
  seq: number;
}

/**
 * The replayable events of a session after `from`, read from the journals:
 * the rest of that continuation, then every later one of the session. A
 * `from` the session does not hold replays nothing. Returns the events and,
 * per continuation read, the last seq it covers, so live events already
 * replayed can be told apart.
 */
export async function replayEvents(args: { store: Store; owner: string; sessionId: string; from: ReplayFrom }): Promise<{ events: AgentEvent[]; covered: Map<string, number> }> {
  const { store, owner, sessionId, from } = args;
  const events: AgentEvent[] = [];
  const covered = new Map<string, number>();
  const session = store.sessions.get(owner, sessionId);
  const refs = session?.messages ?? [];
  const start = refs.findIndex((r) => r.continuationId === from.continuationId);
  if (start < 0) return { events, covered };
  for (const ref of refs.slice(start)) {
    const id = ref.continuationId;
    const after = id === from.continuationId ? from.seq : 0;
    // The record first: once it is final the journal is complete, so its final seq matches the live one.
    const record = await store.continuations.get(owner, id);
    const entries = await storeJournal(store, owner, id).read();
    const base = { session_id: sessionId, continuation_id: id, ts: record?.updatedAt ?? 0 };
    for (const step of stepEventsOf(entries)) if (step.seq > after) events.push({ ...base, ...step });
    let last = entries.length;
    if (record && isFinalStatus(record.status)) {
      last += 1;
      if (last > after) events.push({ type: "final", ...base, seq: last, payload: finalPayload(record) });
    }
    covered.set(id, Math.max(last, after));
  }
  return { events, covered };
}

/**
 * Subscribes `listener` to a session's events, starting with what it missed:
 * after `from`, or when there is none, the open turn from its start. Live
 * events that arrive while the journals are read wait, and those the replay
 * already covered are dropped, so each replayable event comes once.
 */
export async function watchSession(args: {
  store: Store;
  events: AgentEvents;
  owner: string;
  sessionId: string;
  from: ReplayFrom | undefined;
  listener: AgentEventListener;
}): Promise<() => void> {
  const { store, owner, sessionId, listener } = args;
  let waiting: AgentEvent[] | undefined = [];
  let covered = new Map<string, number>();
  const deliver = (event: AgentEvent) => {
    if (REPLAYABLE_EVENTS.has(event.type) && event.seq <= (covered.get(event.continuation_id) ?? 0)) return;
    listener(event);
  };
  const unsubscribe = args.events.subscribe(sessionId, (event) => (waiting ? waiting.push(event) : deliver(event)));
  const open = store.sessions.get(owner, sessionId)?.openContinuations[0];
  const from = args.from ?? (open ? { continuationId: open, seq: 0 } : undefined);
  try {
    if (from) {
      const replayed = await replayEvents({ store, owner, sessionId, from });
      covered = replayed.covered;
      for (const event of replayed.events) listener(event);
    }
  } catch (err) {
    unsubscribe();
    throw err;
  }
  const queued = waiting;
  waiting = undefined;
  for (const event of queued) deliver(event);
  return unsubscribe;
}
