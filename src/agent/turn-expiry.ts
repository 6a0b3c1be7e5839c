import { describeError, type Clock, type Logger } from "../shared/index.js";
import { approvalExpired, type ContinuationRecord, type PendingApproval, type Store } from "../store/index.js";
import type { ApprovalDesk } from "./approval-desk.js";
import { ApprovalDeadlines, expireWaitingTurn } from "./approval-expiry.js";
import type { AgentEvents } from "./events.js";
import { ANSWER_TAKEN_MS, settledWithin, type RunningTurns } from "./running-turns.js";
import type { RuntimeTiming } from "./runtime-timing.js";

export interface TurnExpiryOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  events: AgentEvents;
  desk: ApprovalDesk;
  /** The runtime's own list: an idle turn being ended is entered in it, so nothing takes it up halfway. */
  running: RunningTurns;
  /** Aborted by a drain: a deadline that comes after it ends nothing. */
  drain: AbortSignal;
  timing: RuntimeTiming;
}

/**
 * Ends turns whose approval's deadline has passed: a running turn is told
 * at its wait, one that no one runs is ended here, without a model. Holds
 * the timers of waiting turns that could not be taken up.
 */
export class TurnExpiry {
  /** Deadlines of waiting turns that could not be taken up: each ends its turn if no one ran it by then. */
  readonly #deadlines: ApprovalDeadlines;

  constructor(private readonly options: TurnExpiryOptions) {
    this.#deadlines = new ApprovalDeadlines(options.timing);
  }

  /** Ends the session's open turn if it waits on an approval past its deadline by the wall clock; true when it did. */
  async overdue(owner: string, sessionId: string): Promise<boolean> {
    const { store, clock } = this.options;
    const open = store.sessions.get(owner, sessionId)?.openContinuations[0];
    const record = open ? await store.continuations.get(owner, open) : undefined;
    const pending = record?.status === "input_required" ? record.approval : undefined;
    if (!record || !pending || !approvalExpired(pending, clock.now())) return false;
    await this.expire(owner, record, pending);
    return true;
  }

  /** Ends a turn whose approval's deadline has passed: the running turn is told now, one no one runs is ended here. */
  async expire(owner: string, record: ContinuationRecord, pending: PendingApproval): Promise<void> {
    const running = this.options.running.get(record.id);
    if (!running) return this.idle(owner, record, pending);
    // At its wait, it journals the expiry now; still replaying towards it, its timer fires at once.
    this.options.desk.expire(record.id, pending.id);
    await settledWithin(running.done.catch(() => undefined), ANSWER_TAKEN_MS);
  }

  /** Ends a waiting turn that no one runs; it counts as running meanwhile, so nothing takes it up halfway. */
  async idle(owner: string, record: ContinuationRecord, pending: PendingApproval): Promise<void> {
    const { store, clock, events, running } = this.options;
    if (running.has(record.id)) return;
    const done = expireWaitingTurn({ store, clock, events }, { owner, record, pending });
    running.set(record.id, { sessionId: record.sessionId, cancel: new AbortController(), interrupt: new AbortController(), done });
    try {
      await done;
    } finally {
      running.delete(record.id);
    }
  }

  /** Ends a waiting turn no one could take up once its deadline passes, unless it runs or was answered by then. */
  atDeadline(owner: string, continuationId: string, pending: PendingApproval): void {
    const { store, logger, drain } = this.options;
    const due = async () => {
      if (drain.aborted) return;
      const record = await store.continuations.get(owner, continuationId);
      if (record?.status !== "input_required" || record.approval?.id !== pending.id) return;
      await this.idle(owner, record, pending);
    };
    this.#deadlines.at(pending, () =>
      due().catch((err: unknown) => logger.warn({ continuation: continuationId, err: describeError(err) }, "a turn whose approval expired could not be ended; the next start ends it")),
    );
  }

  /** Stops every deadline timer: a drain leaves waiting turns to the next start. */
  clear(): void {
    this.#deadlines.clear();
  }
}
