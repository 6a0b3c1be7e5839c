import { CLIENT_CAPABILITIES_META_KEY } from "@modelcontextprotocol/server";
import { APPROVAL_FORM } from "../../tools/index.js";

/** One form elicitation per key, in the shape both a task's `inputRequests` and an `InputRequiredResult` carry. */
export type ApprovalInputRequests = Record<string, { method: "elicitation/create"; params: { mode: "form"; message: string; requestedSchema: typeof APPROVAL_FORM } }>;

/**
 * The form-mode `elicitation/create` request that asks a person for a yes:
 * the same literal in a task's `inputRequests` and in an
 * `InputRequiredResult`, keyed by the approval's id (unique for the turn, as
 * the extension wants each key to be).
 */
export function approvalInputRequests(approval: { id: string; question: string }): ApprovalInputRequests {
  return { [approval.id]: { method: "elicitation/create", params: { mode: "form", message: approval.question, requestedSchema: APPROVAL_FORM } } };
}

/**
 * Whether a 2026-07-28 request's client capabilities cover a form
 * elicitation, read as the SDK reads them: `form` declared, or a bare
 * `elicitation: {}` (which meant form before modes existed). The SDK refuses
 * an input request the client did not declare, so this is asked first.
 */
export function declaresElicitationForm(envelope: unknown): boolean {
  // The SDK types the envelope as `{}`; its keys are the protocol's reserved _meta names.
  const capabilities = (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  const elicitation = isObject(capabilities) ? capabilities.elicitation : undefined;
  if (!isObject(elicitation)) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
