import { approvalExpired, approvalWords, type ApprovalCall, type PendingApproval, type Usage } from "../store/index.js";
import type { AgentTool, AgentToolOutcome } from "./agent-tool.js";
import type { ApprovalGate, ApprovalOutcome } from "./approval-gate.js";
import type { TurnJournal } from "./journal.js";
import type { ApprovalDecisionDetail } from "./records.js";
import type { OpenCall } from "./replay.js";
import type { Clock } from "../shared/index.js";

/** What an action may do once its approval, if it needs one, is settled. */
export type Passage =
  | { kind: "run"; approved?: ApprovalCall }
  | { kind: "denied"; outcome: AgentToolOutcome }
  | { kind: "expired"; request: PendingApproval }
  /** The turn was stopped (cancel, shutdown) while it waited: nothing is journaled, a resume waits again. */
  | { kind: "stopped" };

export interface PassageArgs {
  open: OpenCall;
  tool: AgentTool | undefined;
  step: number;
  key: string;
  journal: TurnJournal;
  gate: ApprovalGate | undefined;
  clock: Clock;
  signal: AbortSignal;
  /** What the turn has spent so far, written with the wait so it is counted however the turn ends. */
  spent?: () => Partial<Usage>;
}

/**
 * Settles an action's approval. Each transition is journaled (fsynced)
 * before what follows it: the request before anyone is asked, the decision
 * before the call runs. So a restart finds the approval still waiting, or
 * its answer, and never asks twice or acts without a yes.
 */
export async function passApproval(args: PassageArgs): Promise<Passage> {
  const { open, gate, journal } = args;
  if (!gate) return { kind: "run" };
  let asked = open.approval;
  if (!asked) {
    const plan = await args.tool?.plan?.(open.call.args, args.signal);
    if (!plan || plan.kind === "run") return { kind: "run" };
    const now = args.clock.now();
    const request: PendingApproval = { id: gate.newId(), step: args.step, index: open.index, call: plan.call, targetStates: plan.targetStates, why: plan.why, requestedAt: now, expiresAt: gate.expiresAt(now) };
    await journal.append({ type: "approval_request", key: args.key, detail: request }, { durable: true });
    asked = { request };
  }
  const { request } = asked;
  let decision = asked.decision;
  if (!decision) {
    const answer = await gate.wait(request, args.signal, args.spent?.());
    if (!answer) return { kind: "stopped" };
    decision = decisionOf(request, answer, args.clock.now());
    await journal.append({ type: "approval_decision", key: args.key, detail: decision }, { durable: true });
  }
  // Also after a restart that came between the decision and this: the turn shows as running again.
  await gate.decided(request, decision);
  if (decision.decision === "expired") return { kind: "expired", request };
  if (decision.decision === "approve") return { kind: "run", approved: request.call };
  return { kind: "denied", outcome: { ok: false, error: { code: "approval_denied", message: deniedMessage(request, decision) } } };
}

/**
 * The decision to journal. The deadline is part of the approval: an answer
 * given at or after it is journaled `expired`, whatever it said, so a yes
 * that comes late never acts.
 */
function decisionOf(request: PendingApproval, answer: ApprovalOutcome, now: number): ApprovalDecisionDetail {
  const { at = now, ...given } = answer;
  if (given.decision !== "expired" && !approvalExpired(request, at)) return { approvalId: request.id, ...given, at };
  return { approvalId: request.id, decision: "expired", at: now };
}

/** What a turn whose approval expired says: nothing was done. */
export function expiredNote(request: PendingApproval): string {
  const minutes = Math.round((request.expiresAt - request.requestedAt) / 60_000);
  return `No one answered the approval for ${approvalWords(request.call)} within ${minutes} minutes; nothing was done and the turn ended. Send the request again to ask anew.`;
}

function deniedMessage(request: PendingApproval, decision: ApprovalDecisionDetail): string {
  const reason = decision.reason ? ` Their reason: ${decision.reason}` : "";
  return `A person denied ${approvalWords(request.call)}; nothing was done.${reason} Tell the user, and do not try this again unless they ask.`;
}
