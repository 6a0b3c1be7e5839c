import { z } from "zod";
import { stringify } from "yaml";
import { cleanName, namedEntity, NAME_MAX, shownJson, shownLines, shownName, shownText } from "../../shared/index.js";
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

/**
 * The question a person is asked, its first line whole on its own: the
 * service and the entity ids, from the call itself, then each target's
 * quoted name and its state now; for a save, the exact config and its
 * changes below. Every name and state passes through the display-name
 * functions, so none can break a line, flip text or pose as a question.
 */
export function approvalQuestion(approval: PendingApproval): string {
  const { call } = approval;
  if (call.kind === "automation_save") {
    const name = approval.targetStates.find((t) => t.entityId === call.entityId)?.name;
    const alias = typeof call.config.alias === "string" ? call.config.alias : undefined;
    const what =
      call.created || !call.entityId
        ? `a new automation (id ${shownText(call.id, NAME_MAX)}${alias ? `, alias ${shownName(alias)}` : ""})`
        : `${namedEntity(call.entityId, name)}, id ${shownText(call.id, NAME_MAX)}`;
    const changes = call.diff === null ? "" : `\nThe changes:\n${shownLines(call.diff)}`;
    return `Approve automation_save of ${what}, with this configuration?\n${shownLines(stringify(call.config, { version: "1.1" }).trimEnd())}${changes}`;
  }
  const states = new Map(approval.targetStates.map((t) => [t.entityId, t]));
  const target = (id: string) => {
    const then = states.get(id);
    return namedEntity(id, then?.name, then ? `now ${then.state === null ? "unknown" : shownName(then.state)}` : undefined);
  };
  const targets = call.targets.map(target).join(", ") || "no entity";
  const data = Object.keys(call.data).length ? ` with ${shownJson(call.data)}` : "";
  return `Approve ${shownText(`${call.domain}.${call.service}`, NAME_MAX)} on ${targets}${data}?`;
}

export function approvalToWire(approval: PendingApproval): ApprovalView {
  return {
    approval_id: approval.id,
    ...approvalShown(approval.call),
    target_states: approval.targetStates.map((t) => ({ entity_id: t.entityId, ...(t.name ? { name: cleanName(t.name) } : {}), state: t.state === null ? null : cleanName(t.state) })),
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
