import { z } from "zod";
import { publishAs } from "../json-schema.js";
import { openObject } from "../open-object.js";
import { ok, type ToolSpec } from "../tool.js";
import { checkAutomation, problemList, type CheckResult } from "./check.js";
import type { LogicDeps } from "./common.js";
import { defineLogicReadTool } from "./read-tool.js";
import { READS } from "./traces.js";

const YamlText = z.string().min(1).max(100_000);

/**
 * A draft as a person or a model writes it: an object in `config`, or the
 * YAML of automations.yaml in `config_yaml`. Two parameters, not a union:
 * Home Assistant's converters refuse or flatten an object-or-string union.
 * YAML text in `config`, the shape published before, is still taken.
 */
export const DraftFields = {
  config: publishAs(z.union([openObject({ maxKeys: 50 }), YamlText]), { type: "object", additionalProperties: true })
    .optional()
    .describe("The automation"),
  config_yaml: YamlText.optional().describe("Or as YAML, as in automations.yaml"),
};

/** Exactly one of config and config_yaml, said plainly otherwise. */
export function oneDraft(args: { config?: unknown; config_yaml?: unknown }, ctx: z.RefinementCtx): void {
  if (args.config !== undefined && args.config_yaml !== undefined) ctx.addIssue({ code: "custom", path: ["config_yaml"], message: "give the automation once: config (an object) or config_yaml (YAML text), not both" });
  if (args.config === undefined && args.config_yaml === undefined) ctx.addIssue({ code: "custom", path: ["config"], message: "give the automation: config (an object) or config_yaml (YAML text)" });
}

/** The draft the caller gave, object or YAML text; only for arguments `oneDraft` passed. */
export const draftOf = (args: { config?: Record<string, unknown> | string; config_yaml?: string }): Record<string, unknown> | string => (args.config ?? args.config_yaml)!;

const Input = z
  .object({
    ...DraftFields,
    id: z.string().min(1).max(255).optional().describe("Config id of the saved one to diff against"),
  })
  .superRefine(oneDraft);

export const ProblemSchema = z.object({ path: z.string().describe("Where in the config, with plural keys: actions/0/target/entity_id."), message: z.string() });

const Output = z.object({
  summary: z.string(),
  valid: z.boolean(),
  problems: z.array(ProblemSchema),
  normalized: z.record(z.string(), z.unknown()).describe("The config as it would be saved."),
  changes: z.string().optional().describe("A unified diff (YAML) of the saved automation against this one."),
  notes: z.array(z.string()).describe("What was renamed or assumed."),
});

/** Needs the saved config for the diff, and editing automations is an administrator's job in Home Assistant. */
const NEEDS = [READS.config];

/** The verdict in a sentence or two: valid or not, how many problems, and whether anything would change. */
export function checkSummary(check: CheckResult): string {
  const verdict = check.valid ? "The automation is valid." : `The automation has ${check.problems.length} problem${check.problems.length === 1 ? "" : "s"}: ${problemList(check.problems)}`;
  const changes = check.changes === undefined ? "" : check.changes === "" ? ` It is the same as the saved automation ${check.id}.` : ` It differs from the saved automation ${check.id} as changes shows.`;
  return `${verdict}${changes}`;
}

/** `automation_check`: a draft automation checked by Home Assistant and against the home, with its diff. */
export function createAutomationCheckTool(deps: LogicDeps): ToolSpec {
  return defineLogicReadTool(deps, {
    name: "automation_check",
    title: "Check a draft automation",
    description:
      "Checks a draft automation without saving it: Home Assistant's validation, its entity ids and actions against the home, a diff against a saved one. Administrators only.",
    input: Input,
    output: Output,
    needs: NEEDS,
    run: async (args, ha) => {
      const check = await checkAutomation({ ha, index: deps.index, given: draftOf(args), ...(args.id ? { id: args.id } : {}) });
      return ok({
        summary: checkSummary(check),
        valid: check.valid,
        problems: check.problems,
        normalized: check.normalized,
        ...(check.changes !== undefined ? { changes: check.changes } : {}),
        notes: check.notes,
      });
    },
  });
}
