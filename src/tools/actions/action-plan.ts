import type { HomeIndex } from "../../indexer/index.js";
import type { ApprovalCall, ServiceCallAction } from "../../store/index.js";
import type { ActionPlan, SessionActuation } from "../tool.js";
import { decideActuation, type ActuationCeiling } from "./actuation-policy.js";
import { parseCall, type CallServiceArgs } from "./call-service-input.js";
import { resolveCallTargets } from "./call-target.js";

/** The exact call a person is asked about, as call_service would send it. */
export const approvalCallOf = (args: CallServiceArgs, targets: string[]): ServiceCallAction => ({ kind: "call_service", domain: args.domain, service: args.service, targets, data: args.service_data ?? {} });

/** Whether a call is the one a person approved: same service, same entities, same data. */
export function isApprovedCall(approved: ApprovalCall | undefined, call: ServiceCallAction): boolean {
  if (approved?.kind !== "call_service") return false;
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
  return approved.domain === call.domain && approved.service === call.service && same(approved.targets, call.targets) && JSON.stringify(approved.data) === JSON.stringify(call.data);
}

/**
 * Plans a call_service call for a session: run it, or ask a person first
 * about exactly this call on exactly these entities. Only a valid call inside the
 * add-on's ceiling, on a target that resolves, is ever put to a person: a
 * call the tool would refuse anyway runs and is refused with its message.
 */
export function planAction(deps: { index: HomeIndex; ceiling: ActuationCeiling }, raw: unknown, session: SessionActuation | undefined): ActionPlan {
  const call = parseCall(raw);
  if (!call || !session) return { kind: "run" };
  const decision = decideActuation({ domain: call.domain, service: call.service, ceiling: deps.ceiling, session });
  if (decision.allowed || decision.code !== "ask") return { kind: "run" };
  const targets = resolveCallTargets(deps.index, call);
  if (!targets.ok) return { kind: "run" };
  const targetStates = targets.value.map((id) => {
    const entity = deps.index.entity(id);
    return { entityId: id, ...(entity?.name ? { name: entity.name } : {}), state: entity?.state?.state ?? null };
  });
  return { kind: "ask", call: approvalCallOf(call, targets.value), targetStates, why: decision.why };
}
