import { z } from "zod";
import { ok, type ToolSpec } from "../tool.js";
import { clockOf, zoneOf, type LogicDeps } from "./common.js";
import { diagnose } from "./diagnostics.js";
import { aboutAutomation, AutomationNamed, defineLogicReadTool } from "./read-tool.js";
import { recentRuns } from "./runs.js";
import { OUTCOMES } from "./story.js";
import { configOfEntity, READS, savedConfig } from "./traces.js";
import { spokenTime, zonedIso } from "./when.js";

const Input = z.object({
  automation: AutomationNamed,
  runs: z.number().int().min(1).max(20).default(5).describe("Newest runs to tell, 1-20"),
});

export const RunSchema = z.object({
  run_id: z.string(),
  start: z.string(),
  trigger: z.string().describe("What started the run, in words."),
  outcome: z.enum(OUTCOMES),
  failed_condition: z.object({ path: z.string(), text: z.string() }).optional().describe("The condition that stopped the run: its trace path and words."),
  error: z.string().optional(),
  narrative: z.string(),
});

const Output = z.object({
  summary: z.string().describe("The story: what it is, its newest run, and why runs are missing."),
  entity_id: z.string(),
  id: z.string().nullable().describe("The config id; null for an automation without one."),
  alias: z.string(),
  state: z.string().nullable(),
  mode: z.string().nullable(),
  last_triggered: z.string().nullable(),
  config: z.record(z.string(), z.unknown()).nullable(),
  runs: z.array(RunSchema).describe("Newest first."),
  diagnostics: z.array(z.string()).describe("Why runs are missing or few, and how to fix it."),
});

/** What this tool reads: the config views and traces, which Home Assistant shows administrators only. */
const NEEDS = [READS.config, READS.traceList, READS.traceGet];

/** `automation_inspect`: an automation or script, its config and its newest runs told from their traces. */
export function createAutomationInspectTool(deps: LogicDeps): ToolSpec {
  return defineLogicReadTool(deps, {
    name: "automation_inspect",
    title: "Inspect an automation's runs",
    description:
      "Why an automation or script did or did not run: its config and newest runs told from their traces, and why runs are missing. Administrators only.",
    input: Input,
    output: Output,
    needs: NEEDS,
    run: aboutAutomation(deps.index, async (ref, args, ha) => {
      const now = clockOf(deps).now();
      const [zone, config] = await Promise.all([zoneOf(deps), ref.id !== null ? savedConfig(ha, ref.domain, ref.id) : configOfEntity(ha, ref.entityId)]);
      const { stories } = await recentRuns({ ha, ref, config, count: args.runs, story: { index: deps.index, now, zone } });
      const diagnostics = diagnose({ ref, config, runs: stories.length, now, zone });
      const lastTriggered = ref.lastTriggered && !Number.isNaN(Date.parse(ref.lastTriggered)) ? Date.parse(ref.lastTriggered) : undefined;
      const head = `${ref.alias} (${ref.entityId}) is ${ref.state ?? "unknown"}${ref.mode ? `, mode ${ref.mode}` : ""}${lastTriggered === undefined ? "" : `, last triggered at ${spokenTime(lastTriggered, now, zone)}`}.`;
      const newest = stories[0] ? ` Newest of ${stories.length} stored run${stories.length === 1 ? "" : "s"}: ${stories[0].narrative}` : " No stored runs.";
      return ok({
        summary: `${head}${newest}${diagnostics.length ? ` ${diagnostics.join(" ")}` : ""}`,
        entity_id: ref.entityId,
        id: ref.id,
        alias: ref.alias,
        state: ref.state,
        mode: ref.mode,
        last_triggered: lastTriggered === undefined ? null : zonedIso(lastTriggered, zone),
        config,
        runs: stories.map((s) => ({
          run_id: s.runId,
          start: zonedIso(s.startMs, zone),
          trigger: s.trigger,
          outcome: s.outcome,
          ...(s.failedCondition ? { failed_condition: s.failedCondition } : {}),
          ...(s.error ? { error: s.error } : {}),
          narrative: s.narrative,
        })),
        diagnostics,
      });
    }),
  });
}
