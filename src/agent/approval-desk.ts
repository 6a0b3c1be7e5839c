import { watchDeadline, type Clock, type ClockJumps, type Monotonic } from "../shared/index.js";
import { idGenerator, type PendingApproval, type Store, type Usage } from "../store/index.js";
import type { ApprovalGate, ApprovalOutcome } from "./approval-gate.js";
import type { ApprovalDecisionDetail } from "./records.js";

interface Waiting {
  approvalId: string;
  deliver(outcome: ApprovalOutcome): void;
}

interface Answer {
  approvalId: string;
  outcome: ApprovalOutcome;
  /** Settled with the journaled decision: the answer as given, or `expired` when it reached the turn too late. */
  taken: { promise: Promise<ApprovalDecisionDetail>; resolve(decision: ApprovalDecisionDetail): void };
}

/**
 * Where a person's answers meet the turns that wait for them. An answer is
 * queued until its turn takes it, so it is not lost when it arrives before
 * the turn reaches its wait (after a restart, say). Each approval takes one
 * answer: a second one is refused.
 */
export class ApprovalDesk {
  readonly #waiting = new Map<string, Waiting>();
  readonly #answers = new Map<string, Answer>();
  readonly #watchers = new Map<string, Set<() => void>>();
  readonly #newId: () => string;
  /** Approvals asked in this run; any other was carried over a restart (see `carriedFrom`). */
  readonly #askedHere = new Set<string>();

  /**
   * `carriedFrom`: the latest wall-clock time the data had seen before this
   * run (the store's `lastSeenAt`). A carried approval's time left counts from
   * there when the clock now reads earlier.
   */
  constructor(private readonly options: { store: Store; clock: Clock; monotonic: Monotonic; jumps?: ClockJumps; checkMs?: number; approvalTimeoutMs: number; carriedFrom?: number }) {
    this.#newId = idGenerator(options.clock);
  }

  /** Calls `listener` each time the turn starts waiting for a person (its record then says so). */
  onWaiting(continuationId: string, listener: () => void): () => void {
    const set = this.#watchers.get(continuationId) ?? new Set();
    set.add(listener);
    this.#watchers.set(continuationId, set);
    return () => {
      set.delete(listener);
      if (!set.size) this.#watchers.delete(continuationId);
    };
  }

  /** Whether a turn is at its wait for this approval right now. */
  isWaiting(continuationId: string, approvalId: string): boolean {
    return this.#waiting.get(continuationId)?.approvalId === approvalId;
  }

  /**
   * Hands an answer to the turn, now or when it reaches its wait. False when
   * the approval already has one. `taken` settles with the decision once it
   * is journaled.
   */
  answer(continuationId: string, approvalId: string, outcome: ApprovalOutcome): { accepted: false } | { accepted: true; taken: Promise<ApprovalDecisionDetail> } {
    const queued = this.#answers.get(continuationId);
    if (queued?.approvalId === approvalId) return { accepted: false };
    let resolve!: (decision: ApprovalDecisionDetail) => void;
    const promise = new Promise<ApprovalDecisionDetail>((r) => (resolve = r));
    this.#answers.set(continuationId, { approvalId, outcome, taken: { promise, resolve } });
    const waiting = this.#waiting.get(continuationId);
    if (waiting?.approvalId === approvalId) waiting.deliver(outcome);
    return { accepted: true, taken: promise };
  }

  /**
   * Ends the wait for an approval whose deadline has passed, now rather than
   * at its timer (which a moved clock does not move). False when the turn is
   * not at that wait.
   */
  expire(continuationId: string, approvalId: string): boolean {
    const waiting = this.#waiting.get(continuationId);
    if (waiting?.approvalId !== approvalId) return false;
    waiting.deliver({ decision: "expired" });
    return true;
  }

  /**
   * Drops what a turn that stopped running left here: an answer it never
   * took (a cancel or a shutdown came first) stays unjournaled, so its
   * approval is still open to the next answer.
   */
  forget(continuationId: string): void {
    this.#answers.delete(continuationId);
    this.#waiting.delete(continuationId);
  }

  /** The gate one turn's actions wait at; `model` (`provider/model`) goes with the usage written while it waits. */
  gate(args: { owner: string; continuationId: string; timeBudgetMs: number; model?: string }): ApprovalGate {
    const { store } = this.options;
    const { owner, continuationId } = args;
    return {
      newId: this.#newId,
      // Whichever is longer: a person gets at least approval_timeout_s, and a long turn its whole budget.
      expiresAt: (requestedAt) => requestedAt + Math.max(args.timeBudgetMs, this.options.approvalTimeoutMs),
      wait: async (request, signal, spent) => {
        const current = await store.continuations.get(owner, continuationId);
        if (current?.status !== "input_required" || current.approval?.id !== request.id) {
          const usage: Partial<Usage> | undefined = spent ? { ...spent, ...(args.model ? { model: args.model } : {}) } : undefined;
          await store.continuations.update(owner, continuationId, { status: "input_required", approval: request, ...(usage ? { usage } : {}) });
          this.#askedHere.add(request.id);
        }
        return this.#wait(continuationId, request, signal);
      },
      decided: async (request, decision) => {
        // An expired approval ends the turn: it does not run again.
        const current = decision.decision === "expired" ? undefined : await store.continuations.get(owner, continuationId);
        if (current?.status === "input_required") await store.continuations.update(owner, continuationId, { status: "running", approval: null });
        this.#settle(continuationId, decision);
      },
    };
  }

  #wait(continuationId: string, request: PendingApproval, signal: AbortSignal): Promise<ApprovalOutcome | undefined> {
    const queued = this.#answers.get(continuationId);
    if (queued?.approvalId === request.id) return Promise.resolve(queued.outcome);
    return new Promise((resolve) => {
      const finish = (outcome: ApprovalOutcome | undefined) => {
        stop();
        signal.removeEventListener("abort", stopped);
        if (this.#waiting.get(continuationId)?.approvalId === request.id) this.#waiting.delete(continuationId);
        resolve(outcome);
      };
      const stopped = () => finish(undefined);
      const { clock, monotonic, jumps, checkMs, carriedFrom } = this.options;
      // Never longer than the approval's own timeout from now: a clock far behind after a reboot cannot stretch it.
      const maxMs = request.expiresAt - request.requestedAt;
      const notBefore = this.#askedHere.has(request.id) ? undefined : carriedFrom;
      const stop = watchDeadline({ clock, monotonic, jumps, checkMs, expiresAt: request.expiresAt, maxMs, ...(notBefore === undefined ? {} : { notBefore }), due: () => finish({ decision: "expired" }) });
      signal.addEventListener("abort", stopped, { once: true });
      this.#waiting.set(continuationId, { approvalId: request.id, deliver: finish });
      if (signal.aborted) stopped();
      else for (const listener of this.#watchers.get(continuationId) ?? []) listener();
    });
  }

  #settle(continuationId: string, decision: ApprovalDecisionDetail): void {
    const queued = this.#answers.get(continuationId);
    if (queued?.approvalId !== decision.approvalId) return;
    this.#answers.delete(continuationId);
    queued.taken.resolve(decision);
  }
}
