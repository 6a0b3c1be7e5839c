import { z } from "zod";
import { stringify } from "yaml";
import { approvalShown, type PendingApproval } from "../../store/index.js";

/** How a person answered: `via` says through which channel, for the journal and the console. */
export const ApprovalDecisionSchema = z.enum(["approve", "deny"]);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
export type ApprovalChannel = "tool" | "task" | "elicitation" | "console";

/** A pending approval as the agent tools show it. */
export const ApprovalWire = z.object({
  approval_id: z.string(),
  service: z.string().describe("domain.service the agent wants to call, or automation_save."),
  targets: z.array(z.string()).describe("The entity ids it would act on."),
  data: z.record(z.string(), z.unknown()).describe("The service data exactly as it would be sent; for automation_save the id, the config and its diff."),
  target_states: z.array(z.object({ entity_id: z.string(), name: z.string().optional(), state: z.string().nullable() })).describe("The targets' states when the approval was asked."),
  why: z.enum(["approval_required", "not_preapproved", "automation_edit"]).describe("approval_required: the add-on always asks for this service; not_preapproved: the session did not allow it beforehand; automation_edit: saving an automation always asks."),
  expires_at: z.string().describe("When the turn ends if no one answers."),
  question: z.string().describe("The question for a person, in plain words."),
});
export type ApprovalView = z.infer<typeof ApprovalWire>;

/** The question a person is asked: the exact call, its targets and their states now; for a save, the exact config and its changes. */
export function approvalQuestion(approval: PendingApproval): string {
  const { call } = approval;
  if (call.kind === "automation_save") {
    const what = call.created ? `create a new automation (id ${call.id})` : `change the automation ${call.entityId ?? call.id}`;
    const changes = call.diff === null ? "" : `\nThe changes:\n${call.diff}`;
    return `HA Agent wants to ${what} with this configuration:\n${stringify(call.config, { version: "1.1" }).trimEnd()}${changes}\nApprove it?`;
  }
  const targets = approval.targetStates.length
    ? approval.targetStates.map((t) => `${t.name ? `${t.name} (${t.entityId})` : t.entityId}, now ${t.state ?? "unknown"}`).join("; ")
    : call.targets.join(", ") || "no entity";
  const data = Object.keys(call.data).length ? ` with ${JSON.stringify(call.data)}` : "";
  return `HA Agent wants to call ${call.domain}.${call.service}${data} on ${targets}. Approve it?`;
}

export function approvalToWire(approval: PendingApproval): ApprovalView {
  return {
    approval_id: approval.id,
    ...approvalShown(approval.call),
    target_states: approval.targetStates.map((t) => ({ entity_id: t.entityId, ...(t.name ? { name: t.name } : {}), state: t.state })),
    why: approval.why,
    expires_at: new Date(approval.expiresAt).toISOString(),
    question: approvalQuestion(approval),
  };
}

/**
 * The elicitation form of an approval: one boolean and an optional reason.
 * Flat and primitive, as elicitation forms must be.
 */
export const ApprovalFormSchema = z.object({
  approve: z.boolean().describe("Approve this exact call? Unticked denies it."),
  reason: z.string().max(500).optional().describe("Optional: why, for the agent and the log."),
});

/** The same form as the JSON Schema an `elicitation/create` request carries. */
export const APPROVAL_FORM = {
  type: "object",
  properties: {
    approve: { type: "boolean", title: "Approve", description: "Approve this exact call? Unticked denies it.", default: false },
    reason: { type: "string", title: "Reason (optional)", description: "Why, for the agent and the log.", maxLength: 500 },
  },
  required: ["approve"],
} as const;

/**
 * An elicitation result as a decision. Only `accept` with `approve: true`
 * approves; `decline`, `cancel`, a malformed form or anything else denies.
 */
export function decisionFromElicitation(result: unknown): { decision: ApprovalDecision; reason?: string } {
  const parsed = z.object({ action: z.enum(["accept", "decline", "cancel"]), content: z.unknown().optional() }).safeParse(result);
  if (!parsed.success) return { decision: "deny", reason: "The answer could not be read as an approval form." };
  if (parsed.data.action !== "accept") return { decision: "deny", reason: parsed.data.action === "decline" ? "Declined." : "Cancelled without an answer." };
  const form = ApprovalFormSchema.safeParse(parsed.data.content);
  if (!form.success) return { decision: "deny", reason: "The answer could not be read as an approval form." };
  return { decision: form.data.approve ? "approve" : "deny", ...(form.data.reason ? { reason: form.data.reason } : {}) };
}
