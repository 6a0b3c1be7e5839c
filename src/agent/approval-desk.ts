import type { Clock } from "../shared/index.js";
import { idGenerator, type PendingApproval, type Store } from "../store/index.js";
import type { ApprovalGate, ApprovalOutcome } from "./approval-gate.js";
import type { ApprovalDecisionDetail } from "./records.js";

interface Waiting {
  approvalId: string;
  deliver(outcome: ApprovalOutcome): void;
}

interface Answer {
  approvalId: string;
  outcome: ApprovalOutcome;
  /** Settled once the decision is journaled and the turn runs again. */
  taken: { promise: Promise<void>; resolve(): void };
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

  constructor(private readonly options: { store: Store; clock: Clock; approvalTimeoutMs: number }) {
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
   * the approval already has one. `taken` settles once it is journaled.
   */
  answer(continuationId: string, approvalId: string, outcome: ApprovalOutcome): { accepted: false } | { accepted: true; taken: Promise<void> } {
    const queued = this.#answers.get(continuationId);
    if (queued?.approvalId === approvalId) return { accepted: false };
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#answers.set(continuationId, { approvalId, outcome, taken: { promise, resolve } });
    const waiting = this.#waiting.get(continuationId);
    if (waiting?.approvalId === approvalId) waiting.deliver(outcome);
    return { accepted: true, taken: promise };
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

  /** The gate one turn's actions wait at. */
  gate(args: { owner: string; continuationId: string; timeBudgetMs: number }): ApprovalGate {
    const { store } = this.options;
    const { owner, continuationId } = args;
    return {
      newId: this.#newId,
      // Whichever is longer: a person gets at least approval_timeout_s, and a long turn its whole budget.
      expiresAt: (requestedAt) => requestedAt + Math.max(args.timeBudgetMs, this.options.approvalTimeoutMs),
      wait: async (request, signal) => {
        const current = await store.continuations.get(owner, continuationId);
        if (current?.status !== "input_required" || current.approval?.id !== request.id) {
          await store.continuations.update(owner, continuationId, { status: "input_required", approval: request });
        }
        return this.#wait(continuationId, request, signal);
      },
      decided: async (request, decision) => {
        const current = await store.continuations.get(owner, continuationId);
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
        clearTimeout(timer);
        signal.removeEventListener("abort", stopped);
        if (this.#waiting.get(continuationId)?.approvalId === request.id) this.#waiting.delete(continuationId);
        resolve(outcome);
      };
      const stopped = () => finish(undefined);
      // A Node timer holds at most 2^31 ms; approvals expire long before that.
      const timer = setTimeout(() => finish({ decision: "expired" }), Math.max(0, request.expiresAt - this.options.clock.now()));
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
    queued.taken.resolve();
  }
}
