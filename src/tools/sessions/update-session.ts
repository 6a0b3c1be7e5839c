import { z } from "zod";
import { MEMORY_LIMITS, type Store } from "../../store/index.js";
import { refusalsAsFailures } from "../failure.js";
import type { ActuationCeiling } from "../actions/index.js";
import { oneOrList, text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { AllowlistedServicesInput, PersonaFields, PolicyOutWire, PolicyWire, SessionIdInput, notFound, personaChoice, policyToWire, type PersonaCheck } from "./wire.js";

const Input = z.object({
  session_id: SessionIdInput,
  pins: oneOrList(text(), { max: MEMORY_LIMITS.pins, example: '["Never touch the heating."]' }).optional().describe("Replaces them; [] removes all"),
  policy: PolicyWire.partial()
    .extend({ allowlisted_services: AllowlistedServicesInput.optional() })
    .optional()
    .describe("Fields to change; the others stay"),
  // "" removes the persona; null, as published before, still does too, but is not shown: a null branch loses the type in Home Assistant's Google integration.
  persona: z
    .preprocess((v) => (v === null ? "" : v), PersonaFields.persona)
    .describe('A prompt\'s name (prompts/list); "" removes it'),
  persona_args: PersonaFields.persona_args,
});

const Output = z.object({
  session_id: z.string(),
  version: z.number().int().describe("Bumped by each change of the session."),
  pins: z.array(z.string()),
  policy: PolicyOutWire,
  persona: z.object({ name: z.string(), args: z.record(z.string(), z.string()) }).nullable(),
});

/**
 * `update_session`: changes a session's pins and policy after it started.
 * The next turn reads them; the add-on's options cap the policy as at start.
 */
export function createUpdateSessionTool(deps: { store: Store; checkPersona?: PersonaCheck; ceiling?: ActuationCeiling }): ToolSpec {
  return defineTool({
    name: "update_session",
    title: "Change a session",
    description: "Changes a session's pins, policy or persona from its next turn on.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    invoke: refusalsAsFailures(async (args, ctx) => {
      const owner = ctx.principal.id;
      const session = deps.store.sessions.get(owner, args.session_id);
      if (!session) return notFound(args.session_id);
      // A turn writes the whole memory when it ends: pins changed under it would be lost.
      if (args.pins && session.openContinuations.length) {
        return fail("busy", `Session ${args.session_id} is working on continuation ${session.openContinuations[0]}; await or cancel it, then change the pins.`);
      }
      const p = args.policy ?? {};
      const policy = {
        ...session.policy,
        ...(p.allow_actuation !== undefined ? { allowActuation: p.allow_actuation } : {}),
        ...(p.allowlisted_services !== undefined ? { allowlistedServices: p.allowlisted_services } : {}),
        ...(p.enforce_fixed_model !== undefined ? { enforceFixedModel: p.enforce_fixed_model } : {}),
        ...(p.approval !== undefined ? { approval: p.approval } : {}),
        ...(p.max_open_continuations !== undefined ? { maxOpenContinuations: p.max_open_continuations } : {}),
      };
      const persona = args.persona === "" ? null : personaChoice({ persona: args.persona, persona_args: args.persona_args });
      if (persona) {
        if (!deps.checkPersona) return fail("unknown_persona", `persona: this add-on offers no personas, so "${persona.name}" cannot be used; leave persona out.`);
        deps.checkPersona(persona);
      }
      const memory = args.pins ? await deps.store.sessions.memory(owner, args.session_id) : undefined;
      const updated = await deps.store.sessions.update(owner, args.session_id, session.version, {
        policy,
        ...(persona !== undefined ? { persona: persona ?? undefined } : {}),
        ...(memory && args.pins ? { memory: { ...memory, pins: args.pins.map((text, i) => ({ id: `p${i + 1}`, text })) } } : {}),
      });
      const pins = (await deps.store.sessions.memory(owner, args.session_id)).pins.map((pin) => pin.text);
      return ok({ session_id: updated.id, version: updated.version, pins, policy: policyToWire(updated.policy, deps.ceiling), persona: updated.persona ?? null });
    }),
  });
}
