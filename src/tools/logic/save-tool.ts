import { z } from "zod";
import type { AutomationSaveAction } from "../../store/index.js";
import { defineTool, fail, type ActionPlan, type ToolCallContext, type ToolSpec } from "../tool.js";
import { DraftFields, draftOf, oneDraft } from "./check-tool.js";
import { clockOf, forCaller, type LogicDeps } from "./common.js";
import { isApprovedSave, prepareSave, settleSave, writeSave } from "./save.js";
import { READS } from "./traces.js";

const Input = z
  .object({
    ...DraftFields,
    id: z.string().min(1).max(255).optional().describe("Config id; none for a new one"),
  })
  .superRefine(oneDraft);

const Output = z.object({
  summary: z.string(),
  id: z.string(),
  entity_id: z.string().nullable().describe("The automation's entity, once Home Assistant loaded it."),
  created: z.boolean(),
  state: z.string().nullable().describe("on or off."),
});

const NEEDS = [READS.saveConfig];

const EDITS_OFF = "Saving automations is turned off. The add-on owner can allow it with the option allow_automation_edits (ALLOW_AUTOMATION_EDITS=true outside the add-on).";

/**
 * `automation_save`: writes an automation to Home Assistant, which reloads
 * it. Only with allow_automation_edits, only valid configs, and, from the
 * agent, only the exact config a person approved.
 */
export function createAutomationSaveTool(deps: LogicDeps): ToolSpec {
  const now = () => clockOf(deps).now();
  return defineTool({
    name: "automation_save",
    title: "Save an automation",
    description:
      "Checks an automation as automation_check does, saves and reloads it. Needs the add-on option allow_automation_edits and, from the agent, a person's yes. Administrators only.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    needs: NEEDS,
    action: {
      plan: (raw, ctx) => planSave(deps, raw, ctx),
      settle: (_raw, ctx) =>
        forCaller({ deps, principal: ctx.principal, needs: NEEDS }, async (ha) => {
          const approved = ctx.actuation?.approved;
          if (approved?.kind !== "automation_save") return fail("outcome_unknown", "Outcome unknown after a restart, and no approved save is on record; nothing was repeated. Check the automation with automation_inspect.");
          return settleSave({ ha, index: deps.index, approved });
        }),
    },
    invoke: (args, ctx) =>
      forCaller({ deps, principal: ctx.principal, needs: NEEDS }, async (ha) => {
        if (!deps.automationEdits) return fail("automation_edits_off", EDITS_OFF);
        const approved = ctx.actuation?.approved?.kind === "automation_save" ? ctx.actuation.approved : undefined;
        const draft = await prepareSave({ ha, index: deps.index, given: draftOf(args), ...(args.id ? { id: args.id } : {}), ...(approved ? { approved } : {}), now });
        if (!draft.ok) return draft;
        // From the agent (which always says its session's limits), only what a person saw and approved is written.
        if (ctx.actuation && !isApprovedSave(approved, draft.value)) {
          return fail("approval_needed", `Saving automation ${draft.value.id} needs a person's yes to exactly this config, and it has none. The agent asks for it before it saves.`);
        }
        return writeSave({ ha, index: deps.index, save: draft.value });
      }),
  });
}

/**
 * Before the agent saves: a valid draft the add-on lets it save waits for a
 * person, who sees the exact config and its diff; anything else runs and is
 * refused with the tool's own message, and no one is asked.
 */
async function planSave(deps: LogicDeps, raw: unknown, ctx: ToolCallContext): Promise<ActionPlan> {
  const args = Input.safeParse(raw);
  if (!deps.automationEdits || !args.success) return { kind: "run" };
  const ha = deps.ha.forCaller(ctx.principal);
  if (!NEEDS.every((r) => ha.allows(r)) || !deps.index.ready) return { kind: "run" };
  let draft;
  try {
    draft = await prepareSave({ ha, index: deps.index, given: draftOf(args.data), ...(args.data.id ? { id: args.data.id } : {}), now: () => clockOf(deps).now() });
  } catch {
    // Home Assistant could not answer: the run says so.
    return { kind: "run" };
  }
  if (!draft.ok) return { kind: "run" };
  const call: AutomationSaveAction = draft.value;
  const existing = call.entityId ? deps.index.entity(call.entityId) : undefined;
  const targetStates = existing ? [{ entityId: existing.entityId, name: existing.name, state: existing.state?.state ?? null }] : [];
  return { kind: "ask", call, targetStates, why: "automation_edit" };
}
