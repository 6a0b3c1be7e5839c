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
}

export type ActuationDecision = { allowed: true } | { allowed: false; code: "actuation_disabled" | "service_not_allowed"; message: string };

const listed = (list: readonly string[], domain: string, service: string) => list.length === 0 || list.some((p) => matchesService(p, { domain, service }));

/** Decides one call. The messages say which setting would allow it. */
export function decideActuation(args: { domain: string; service: string; ceiling: ActuationCeiling; session?: SessionActuation }): ActuationDecision {
  const { domain, service, ceiling, session } = args;
  const name = `${domain}.${service}`;
  if (!ceiling.allow) {
    return { allowed: false, code: "actuation_disabled", message: `Changing the home is turned off. The add-on owner can allow it with the option allow_actuation (ALLOW_ACTUATION=true outside the add-on), and limit it with actuation_allowlist.` };
  }
  if (!listed(ceiling.allowlist, domain, service)) {
    return { allowed: false, code: "service_not_allowed", message: `${name} is not in the add-on's actuation_allowlist (${ceiling.allowlist.join(", ")}). The add-on owner can add it, e.g. "${domain}.*".` };
  }
  if (session && !session.allowActuation) {
    return { allowed: false, code: "actuation_disabled", message: `This session is read-only. Start a session with policy.allow_actuation true to let it change the home.` };
  }
  if (session && !listed(session.allowlistedServices, domain, service)) {
    return { allowed: false, code: "service_not_allowed", message: `${name} is not in this session's allowlisted_services (${session.allowlistedServices.join(", ")}).` };
  }
  return { allowed: true };
}
