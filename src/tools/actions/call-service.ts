import { z } from "zod";
import type { HaClient } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { HaAgentError } from "../../shared/index.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { decideActuation, type ActuationCeiling } from "./actuation-policy.js";

const Name = z.string().regex(/^[a-z0-9_]{1,64}$/, "expected a lower-case name such as light or turn_on");
const EntityId = z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, "expected an entity id such as light.kitchen").max(255);

const Input = z.object({
  domain: Name.describe('Service domain, e.g. "light".'),
  service: Name.describe('Service name, e.g. "turn_on".'),
  entity_id: z.union([EntityId, z.array(EntityId).min(1).max(50)]).optional().describe("Target entity id or ids."),
  service_data: z.record(z.string().max(64), z.unknown()).optional().describe('Service fields, e.g. {"brightness_pct": 40}.'),
});

const Output = z.object({
  service: z.string().describe("domain.service that was called."),
  targets: z.array(z.string()),
  context_id: z.string().describe("Home Assistant's context id of the call, for the logbook."),
});

/**
 * `call_service`: the one tool that changes the home, for MCP clients and the
 * agent alike. Refused unless the add-on options allow it; a session's own
 * policy (when the agent calls it) narrows that further.
 */
export function createCallServiceTool(deps: { ha: HaClient; index: HomeIndex; ceiling: ActuationCeiling }): ToolSpec {
  return defineTool({
    name: "call_service",
    title: "Call a Home Assistant service",
    description: "Calls a Home Assistant service (e.g. light.turn_on) on the given entities. Refused unless the add-on owner allowed actuation for that service.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async invoke(args, ctx) {
      const decision = decideActuation({ domain: args.domain, service: args.service, ceiling: deps.ceiling, session: ctx.actuation });
      if (!decision.allowed) return fail(decision.code, decision.message);
      const targets = args.entity_id === undefined ? [] : Array.isArray(args.entity_id) ? args.entity_id : [args.entity_id];
      const unknown = targets.filter((id) => !deps.index.entity(id));
      if (unknown.length) return fail("unknown_entity", `The home has no ${unknown.join(", ")}. Find entity ids with index_search.`);
      try {
        const result = await deps.ha.callService({
          domain: args.domain,
          service: args.service,
          ...(args.service_data ? { serviceData: args.service_data } : {}),
          ...(targets.length ? { target: { entity_id: targets } } : {}),
        });
        return ok({ service: `${args.domain}.${args.service}`, targets, context_id: result.context.id });
      } catch (err) {
        if (err instanceof HaAgentError) return fail("ha_error", `Home Assistant refused ${args.domain}.${args.service}: ${err.message}`);
        throw err;
      }
    },
  });
}
