import { z } from "zod";
import { fail, ok, type ToolSpec } from "../tool.js";
import { clockOf, zoneOf, type LogicDeps } from "./common.js";
import { aboutAutomation, AutomationNamed, defineLogicReadTool } from "./read-tool.js";
import { OUTCOMES, tellRun } from "./story.js";
import { StepSchema, stepsOf } from "./trace-steps.js";
import { getRun, READS } from "./traces.js";
import { zonedIso } from "./when.js";

const Input = z.object({
  automation: AutomationNamed,
  run_id: z.string().min(1).max(64).describe("From automation_inspect"),
  detail: z.enum(["summary", "full"]).default("summary").describe("full: every step's variables too"),
});

const Output = z.object({
  narrative: z.string(),
  run_id: z.string(),
  entity_id: z.string(),
  start: z.string(),
  outcome: z.enum(OUTCOMES),
  failed_condition: z.object({ path: z.string(), text: z.string() }).optional(),
  error: z.string().optional(),
  steps: z.array(StepSchema),
  notes: z.array(z.string()).describe("What was left out or cut, and how to see more."),
});

const NEEDS = [READS.traceGet];

/** `trace`: one run of an automation or script, step by step. */
export function createTraceTool(deps: LogicDeps): ToolSpec {
  return defineLogicReadTool(deps, {
    name: "trace",
    title: "Read one run's trace",
    description: "One run of an automation or script, step by step (path, result, error), and its story. Administrators only.",
    input: Input,
    output: Output,
    needs: NEEDS,
    run: aboutAutomation(deps.index, async (ref, args, ha) => {
      const trace = await getRun(ha, ref.domain, ref.id ?? "None", args.run_id);
      if (!trace) return fail("not_found", `${ref.alias} (${ref.entityId}) has no stored run ${args.run_id}; automation_inspect lists the runs Home Assistant keeps.`);
      const zone = await zoneOf(deps);
      const story = tellRun(trace, { index: deps.index, now: clockOf(deps).now(), zone, noId: ref.id === null });
      const { steps, notes } = stepsOf(trace, args.detail, zone);
      return ok({
        narrative: story.narrative,
        run_id: trace.run_id,
        entity_id: ref.entityId,
        start: zonedIso(story.startMs, zone),
        outcome: story.outcome,
        ...(story.failedCondition ? { failed_condition: story.failedCondition } : {}),
        ...(story.error ? { error: story.error } : {}),
        steps,
        notes,
      });
    }),
  });
}
