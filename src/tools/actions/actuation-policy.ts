import { matchesService } from "../../config/index.js";
import type { SessionActuation } from "../tool.js";

/**
 * Who may change the home. The add-on owner's options are the ceiling; a
 * session's policy can only narrow them. Both name services with the one
 * pattern grammar of src/config/service-pattern.ts.
 */
export interface ActuationCeiling {
  /** `allow_actuation`: off by default. */
  allow: boolean;
  /** `actuation_allowlist`: empty means every service, once actuation is allowed. */
  allowlist: readonly string[];
  /** `approval_required`: services that always need a person's yes; none when absent. */
  approvalRequired?: readonly string[];
  /** What a session that names no approval policy does with an action: refuse it (the default), or ask a person (the demo). */
  defaultApproval?: "refuse" | "ask";
}

export type ActuationRefusal = { allowed: false; code: "actuation_disabled" | "service_not_allowed" | "approval_required"; message: string };

/**
 * `ask`: the service is inside the ceiling, and a person's yes would allow
 * it (the session asks for approvals). `why` is what the person is told.
 */
export type ActuationDecision = { allowed: true } | ActuationRefusal | { allowed: false; code: "ask"; why: "approval_required" | "not_preapproved" };

const listed = (list: readonly string[], domain: string, service: string) => list.length === 0 || list.some((p) => matchesService(p, { domain, service }));

/**
 * Decides one call. The ceiling is absolute: outside it nothing is allowed
 * or approvable. Inside it, a session that asks for approvals waits for a
 * person where another would be refused; `approval_required` services
 * always ask, or are refused where no one can be asked. The messages say
 * which setting would allow the call.
 */
export function decideActuation(args: { domain: string; service: string; ceiling: ActuationCeiling; session?: SessionActuation }): ActuationDecision {
  const { domain, service, ceiling, session } = args;
  const name = `${domain}.${service}`;
  if (!ceiling.allow) {
    return { allowed: false, code: "actuation_disabled", message: `Changing the home is turned off. The add-on owner can allow it with the option allow_actuation (ALLOW_ACTUATION=true outside the add-on), and limit it with actuation_allowlist.` };
  }
  if (!listed(ceiling.allowlist, domain, service)) {
    return { allowed: false, code: "service_not_allowed", message: `${name} is not in the add-on's actuation_allowlist (${ceiling.allowlist.join(", ")}). The add-on owner can add it, e.g. "${domain}.*".` };
  }
  const alwaysAsks = (ceiling.approvalRequired ?? []).some((p) => matchesService(p, { domain, service }));
  const asks = session?.approval === "ask";
  if (alwaysAsks) {
    if (asks) return { allowed: false, code: "ask", why: "approval_required" };
    return {
      allowed: false,
      code: "approval_required",
      message: `${name} always needs a person's yes (the add-on's approval_required). Ask the agent in a session started with policy.approval "ask": it then waits for the person to approve.`,
    };
  }
  if (!session) return { allowed: true };
  const preapproved = session.allowActuation && listed(session.allowlistedServices, domain, service);
  if (preapproved) return { allowed: true };
  if (asks) return { allowed: false, code: "ask", why: "not_preapproved" };
  if (!session.allowActuation) {
    return { allowed: false, code: "actuation_disabled", message: `This session is read-only. Start a session with policy.allow_actuation true to let it change the home, or with policy.approval "ask" to approve each action.` };
  }
  return { allowed: false, code: "service_not_allowed", message: `${name} is not in this session's allowlisted_services (${session.allowlistedServices.join(", ")}).` };
}
