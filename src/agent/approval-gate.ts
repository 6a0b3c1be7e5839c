import type { PendingApproval, Usage } from "../store/index.js";
import type { ApprovalDecisionDetail } from "./records.js";

/**
 * A person's answer as the loop journals it, or the deadline passing. `at`
 * is when the answer was given; without it, when the turn took it. An
 * answer given at or after the approval's deadline is journaled `expired`.
 */
export type ApprovalOutcome = Omit<ApprovalDecisionDetail, "approvalId" | "at"> & { at?: number };

/**
 * Where a turn's actions wait for a person. The runtime provides it: it
 * shows the turn as `input_required`, hands it the answer from whichever
 * channel gave it, and ends the wait at the approval's deadline.
 */
export interface ApprovalGate {
  /** A new approval id. */
  newId(): string;
  /** When an approval asked now expires. */
  expiresAt(requestedAt: number): number;
  /**
   * Shows the turn as waiting (with what it has spent so far, so a turn
   * that ends while no one runs it still counts it), then waits for an
   * answer or the deadline; undefined when `signal` stopped the turn.
   */
  wait(request: PendingApproval, signal: AbortSignal, spent?: Partial<Usage>): Promise<ApprovalOutcome | undefined>;
  /** Called once the decision is journaled: the turn runs again, and whoever answered hears it was taken. */
  decided(request: PendingApproval, decision: ApprovalDecisionDetail): Promise<void>;
}
