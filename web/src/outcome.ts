import type { ApprovalView, Timeline } from "./api.js";

/** What a person answered on the page, and what came of it: the words the page announces. */
export interface ApprovalNotice {
  approvalId: string;
  continuationId: string;
  decision: "approve" | "deny";
  /** "light.turn_on on Kitchen Ceiling". */
  subject: string;
  text: string;
  /** Whether the outcome is known: the action ran or failed, or the turn ended without it. */
  settled: boolean;
}

const OPEN = new Set(["pending", "running", "streaming", "input_required"]);

/** The call and its targets as a person names them. */
export const approvalSubject = (a: Pick<ApprovalView, "service" | "targets">): string =>
  a.targets.length ? `${a.service} on ${a.targets.map((t) => t.name ?? t.entityId).join(", ")}` : a.service;

/** The notice right after the answer was accepted, before the action's outcome is known. */
export function answeredNotice(a: Pick<ApprovalView, "service" | "targets" | "approvalId" | "continuationId">, decision: "approve" | "deny"): ApprovalNotice {
  const subject = approvalSubject(a);
  return decision === "approve"
    ? { approvalId: a.approvalId, continuationId: a.continuationId, decision, subject, text: `Approved: ${subject}. Running it…`, settled: false }
    : { approvalId: a.approvalId, continuationId: a.continuationId, decision, subject, text: `Denied: ${subject}. Nothing was run.`, settled: true };
}

/**
 * The notice once the turn's timeline tells what happened: the action that
 * followed the decision ran, failed, or the turn ended without running it;
 * the same notice while it is still under way.
 */
export function settleNotice(notice: ApprovalNotice, t: Timeline): ApprovalNotice {
  if (notice.settled || t.continuationId !== notice.continuationId) return notice;
  const at = t.entries.findIndex((e) => e.kind === "decision" && e.approvalId === notice.approvalId);
  if (at === -1) return notice;
  const decision = t.entries[at];
  if (decision?.kind === "decision" && decision.decision === "expired") return { ...notice, text: `Expired: ${notice.subject}. No answer came in time; nothing was run.`, settled: true };
  const action = t.entries.slice(at + 1).find((e) => e.kind === "tool" && e.action);
  if (action?.kind === "tool" && action.result !== undefined) {
    if (!action.isError) return { ...notice, text: `Approved: ${notice.subject} ran.`, settled: true };
    const why = typeof action.result === "string" ? action.result : JSON.stringify(action.result);
    return { ...notice, text: `Approved: ${notice.subject} failed: ${why.length > 200 ? `${why.slice(0, 200)}…` : why}`, settled: true };
  }
  if (!OPEN.has(t.status)) return { ...notice, text: `Approved: ${notice.subject}, but the turn ended ${t.status.replace(/_/g, " ")} before it ran.`, settled: true };
  return notice;
}
