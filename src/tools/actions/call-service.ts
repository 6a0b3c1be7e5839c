import { z } from "zod";
import { HaAdminOnlyError, type HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { HaAgentError } from "../../shared/index.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { approvalCallOf, isApprovedCall, planAction } from "./action-plan.js";
import { decideActuation, type ActuationCeiling } from "./actuation-policy.js";
import { CallServiceInput, callOf } from "./call-service-input.js";
import { resolveCallTargets } from "./call-target.js";

const Output = z.object({
  service: z.string().describe("domain.service that was called."),
  targets: z.array(z.string()).describe("Entity ids the call acted on."),
  context_id: z.string().describe("Home Assistant's context id of the call, for the logbook."),
});

/**
 * `call_service`: the one tool that changes the home, for MCP clients and the
 * agent alike. Refused unless the add-on options allow it; a session's own
 * policy (when the agent calls it) narrows that further. The target is
 * resolved here, and Home Assistant is sent exactly the entities reported.
 */
export function createCallServiceTool(deps: { ha: HaAccess; index: HomeIndex; ceiling: ActuationCeiling }): ToolSpec {
  return defineTool({
    name: "call_service",
    title: "Call a Home Assistant service",
    description:
      'Calls a Home Assistant service: {"action": "light.turn_on", "target": {"area_id": "kitchen"}, "data": {"brightness_pct": 40}}. Refused unless the add-on\'s owner allowed it; some need a person\'s yes.',
    input: CallServiceInput,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    // A call whose outcome a restart made unknown is never repeated: it has no settle.
    action: { plan: (args, ctx) => planAction(deps, args, ctx.actuation) },
    async invoke(input, ctx) {
      const args = callOf(input);
      const decision = decideActuation({ domain: args.domain, service: args.service, ceiling: deps.ceiling, session: ctx.actuation });
      if (!decision.allowed && decision.code !== "ask") return fail(decision.code, decision.message);
      const resolved = resolveCallTargets(deps.index, args);
      if (!resolved.ok) return resolved;
      const targets = resolved.value;
      // A person's yes covers the exact call they saw: other entities or other data need a new one.
      if (!decision.allowed && !isApprovedCall(ctx.actuation?.approved, approvalCallOf(args, targets))) {
        return fail("approval_needed", `${args.domain}.${args.service} on ${targets.join(", ") || "no entity"} needs a person's yes, and this exact call has none. The agent asks for it before it calls.`);
      }
      try {
        const result = await deps.ha.forCaller(ctx.principal).callService({
          domain: args.domain,
          service: args.service,
          ...(args.service_data ? { serviceData: args.service_data } : {}),
          // One id goes as a string: services that take a single entity in their data accept only that.
          ...(targets.length ? { target: { entity_id: targets.length === 1 ? targets[0]! : targets } } : {}),
        });
        return ok({ service: `${args.domain}.${args.service}`, targets, context_id: result.context.id });
      } catch (err) {
        if (err instanceof HaAdminOnlyError) return fail(err.code, err.message);
        if (err instanceof HaAgentError) return fail("ha_error", `Home Assistant refused ${args.domain}.${args.service}: ${err.message}`);
        throw err;
      }
    },
  });
}
