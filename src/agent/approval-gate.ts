import type { PendingApproval } from "../store/index.js";
import type { ApprovalDecisionDetail } from "./records.js";

/** A person's answer as the loop journals it, or the deadline passing. */
export type ApprovalOutcome = Omit<ApprovalDecisionDetail, "approvalId" | "at">;

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
  /** Shows the turn as waiting, then waits for an answer or the deadline; undefined when `signal` stopped the turn. */
  wait(request: PendingApproval, signal: AbortSignal): Promise<ApprovalOutcome | undefined>;
  /** Called once the decision is journaled: the turn runs again, and whoever answered hears it was taken. */
  decided(request: PendingApproval, decision: ApprovalDecisionDetail): Promise<void>;
}
