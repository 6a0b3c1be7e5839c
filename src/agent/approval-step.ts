import type { ApprovalCall, PendingApproval } from "../store/index.js";
import type { AgentTool, AgentToolOutcome } from "./agent-tool.js";
import type { ApprovalGate } from "./approval-gate.js";
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
    const plan = args.tool?.plan?.(open.call.args);
    if (!plan || plan.kind === "run") return { kind: "run" };
    const now = args.clock.now();
    const request: PendingApproval = { id: gate.newId(), step: args.step, index: open.index, call: plan.call, targetStates: plan.targetStates, why: plan.why, requestedAt: now, expiresAt: gate.expiresAt(now) };
    await journal.append({ type: "approval_request", key: args.key, detail: request }, { durable: true });
    asked = { request };
  }
  const { request } = asked;
  let decision = asked.decision;
  if (!decision) {
    const answer = await gate.wait(request, args.signal);
    if (!answer) return { kind: "stopped" };
    decision = { approvalId: request.id, ...answer, at: args.clock.now() };
    await journal.append({ type: "approval_decision", key: args.key, detail: decision }, { durable: true });
  }
  if (decision.decision === "expired") return { kind: "expired", request };
  // Also after a restart that came between the decision and this: the turn shows as running again.
  await gate.decided(request, decision);
  if (decision.decision === "approve") return { kind: "run", approved: request.call };
  return { kind: "denied", outcome: { ok: false, error: { code: "approval_denied", message: deniedMessage(request, decision) } } };
}

function deniedMessage(request: PendingApproval, decision: ApprovalDecisionDetail): string {
  const { call } = request;
  const reason = decision.reason ? ` Their reason: ${decision.reason}` : "";
  return `A person denied ${call.domain}.${call.service} on ${call.targets.join(", ") || "no entity"}; nothing was done.${reason} Tell the user, and do not try this again unless they ask.`;
}
