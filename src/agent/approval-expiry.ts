import { watchDeadline, type Clock, type ClockJumps, type Monotonic } from "../shared/index.js";
import { type ContinuationRecord, type PendingApproval, type Store } from "../store/index.js";
import { expiredNote } from "./approval-step.js";
import { AgentError } from "./errors.js";
import type { AgentEvent, AgentEvents } from "./events.js";
import { finalPayload } from "./execute-continuation.js";
import { parseJournal, readJournal } from "./journal.js";
import { callKey } from "./records.js";
import { replay, usageOf } from "./replay.js";
import { sequencedJournal } from "./step-events.js";
import { storeJournal } from "./store-journal.js";

/** The refusal of an answer that came at or after its approval's deadline. */
export function expiredError(approvalId: string, expiresAt: number | undefined): AgentError {
  const when = expiresAt === undefined ? "" : ` at ${new Date(expiresAt).toISOString()}`;
  return new AgentError(
    "approval_expired",
    `Approval ${approvalId} expired${when}, before this answer came: it was not taken, nothing was done, and the turn ended expired. Send the request again to ask anew.`,
  );
}

/**
 * Ends a turn that waits for a person but that no one runs (its model was
 * not reachable to take it up), once its approval's deadline has passed.
 * No model is needed: the decision `expired` is journaled (fsynced) with the
 * request's key, as the running turn would journal it, then the turn is
 * finished `expired` with what its journal says it spent. Listeners hear the
 * decision and the final event as from a running turn.
 */
export async function expireWaitingTurn(
  deps: { store: Store; clock: Clock; events: AgentEvents },
  args: { owner: string; record: ContinuationRecord; pending: PendingApproval },
): Promise<ContinuationRecord> {
  const { store, clock } = deps;
  const { owner, record, pending } = args;
  const emit = (event: Pick<AgentEvent, "type" | "seq" | "payload">) => deps.events.emit({ ...event, session_id: record.sessionId, continuation_id: record.id });
  const stored = storeJournal(store, owner, record.id);
  const entries = await stored.read();
  const journal = sequencedJournal({ journal: stored, written: entries.length, onStep: emit });
  const decision = { approvalId: pending.id, decision: "expired" as const, at: clock.now() };
  await journal.append({ type: "approval_decision", key: callKey(record.id, pending.step, pending.index), detail: decision }, { durable: true });
  const usage = usageOf(replay(parseJournal(entries)).counters, record.usage.model);
  const final = await store.continuations.update(owner, record.id, { status: "expired", error: { code: "approval_expired", message: expiredNote(pending) }, usage });
  emit({ type: "final", seq: journal.position + 1, payload: finalPayload(final) });
  return final;
}

/** Whether the turn ended because this approval expired: a later answer to it is told so, not "no such approval". */
export async function expiredEarlier(args: { store: Store; owner: string; record: ContinuationRecord; approvalId: string }): Promise<boolean> {
  if (args.record.status !== "expired") return false;
  const records = await readJournal(storeJournal(args.store, args.owner, args.record.id));
  return records.some((r) => r.type === "approval_decision" && r.detail.approvalId === args.approvalId && r.detail.decision === "expired");
}

/**
 * Timers at the deadlines of approvals whose turns no one runs. They only
 * tidy up (the turn shows `expired` without anyone asking): an answer is
 * checked against the deadline whether or not a timer fired.
 */
export class ApprovalDeadlines {
  readonly #stops = new Set<() => void>();

  /** `carriedFrom`: as for ApprovalDesk; every deadline here was carried over a restart. */
  constructor(private readonly options: { clock: Clock; monotonic: Monotonic; jumps?: ClockJumps; checkMs?: number; carriedFrom?: number }) {}

  /** Runs `due` once the approval's deadline has passed, by the wall clock or by time elapsed since now (at most its own timeout). */
  at(pending: PendingApproval, due: () => Promise<void>): void {
    const { carriedFrom, ...timing } = this.options;
    const stop = watchDeadline({
      ...timing,
      ...(carriedFrom === undefined ? {} : { notBefore: carriedFrom }),
      expiresAt: pending.expiresAt,
      maxMs: pending.expiresAt - pending.requestedAt,
      unref: true,
      due: () => {
        this.#stops.delete(stop);
        void due();
      },
    });
    this.#stops.add(stop);
  }

  clear(): void {
    for (const stop of this.#stops) stop();
    this.#stops.clear();
  }
}
