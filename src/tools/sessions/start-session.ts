import { z } from "zod";
import type { SessionToolDeps } from "./get-session.js";
import { oneOrList, text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { refusalsAsFailures } from "../failure.js";
import {
  AllowlistedServicesInput,
  BudgetsWire,
  ModelInUseWire,
  ModelWire,
  PolicyWire,
  PolicyOutWire,
  PreferencesWire,
  PersonaFields,
  budgetsSaid,
  budgetsToWire,
  personaChoice,
  iso,
  modelToWire,
  policyToWire,
  preferencesToWire,
} from "./wire.js";

const Input = z.object({
  model: ModelWire.optional(),
  budgets: BudgetsWire.partial().optional().describe(`Per turn: ${budgetsSaid(["max_steps", "max_tool_calls", "max_duration_ms", "max_tokens_per_turn"])}`),
  policy: PolicyWire.partial().extend({ allowlisted_services: AllowlistedServicesInput.optional() }).optional().describe("What the agent may do; default read-only"),
  preferences: PreferencesWire.optional(),
  pins: oneOrList(text(), { max: 20, example: '["Never touch the heating."]' }).optional().describe('Instructions for every turn, e.g. ["Never touch the heating."]'),
  ...PersonaFields,
});

const Output = z.object({
  session_id: z.string().describe("Pass this to ha_agent_send_message, ha_agent_get_session and ha_agent_end_session."),
  status: z.literal("active"),
  created_at: z.string(),
  model: ModelInUseWire,
  budgets: BudgetsWire,
  policy: PolicyOutWire,
  preferences: PreferencesWire,
});

/** `start_session`: opens a long-lived session owned by the caller. */
export function createStartSessionTool(deps: Pick<SessionToolDeps, "store" | "configuredModel" | "checkModel" | "checkPersona" | "ceiling">): ToolSpec {
  return defineTool({
    name: "start_session",
    title: "Start a session",
    description:
      "Starts an agent session that lasts days and survives restarts; returns its session_id.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    invoke: refusalsAsFailures(async (args, ctx) => {
      const configured = deps.configuredModel?.();
      // Turns always run on the configured provider; a session naming another would be told a falsehood.
      if (configured && args.model?.provider !== undefined && args.model.provider !== configured.provider) {
        return fail("invalid_argument", `model.provider: this add-on runs the "${configured.provider}" provider; omit provider or set it to "${configured.provider}".`);
      }
      // Refused here, before the session is saved; a refusal names the option that would allow it.
      deps.checkModel?.(args.model?.name, ctx.principal);
      const persona = personaChoice(args);
      if (persona) {
        if (!deps.checkPersona) return fail("unknown_persona", `persona: this add-on offers no personas, so "${persona.name}" cannot be used; leave persona out.`);
        deps.checkPersona(persona);
      }
      const b = args.budgets ?? {};
      const p = args.policy ?? {};
      const s = await deps.store.sessions.create({
        owner: ctx.principal.id,
        model: args.model ?? {},
        budgets: { maxSteps: b.max_steps, maxToolCalls: b.max_tool_calls, maxDurationMs: b.max_duration_ms, maxTokensPerTurn: b.max_tokens_per_turn },
        policy: {
          allowActuation: p.allow_actuation,
          allowlistedServices: p.allowlisted_services,
          enforceFixedModel: p.enforce_fixed_model,
          approval: p.approval ?? deps.ceiling?.defaultApproval,
          maxOpenContinuations: p.max_open_continuations,
        },
        preferences: args.preferences ?? {},
        ...(args.pins ? { pins: args.pins } : {}),
        ...(persona ? { persona } : {}),
      });
      return ok({
        session_id: s.id,
        status: "active" as const,
        created_at: iso(s.createdAt),
        model: modelToWire(s.model, configured),
        budgets: budgetsToWire(s.budgets),
        policy: policyToWire(s.policy, deps.ceiling),
        preferences: preferencesToWire(s.preferences),
      });
    }),
  });
}
