import { z } from "zod";
import { HaCommandError, HaRestError, type CallerHa, type HaRequest } from "../../ha/index.js";

/**
 * What Home Assistant answers about automations and scripts, read loosely:
 * unknown fields are kept, so a newer HA that adds some still parses.
 * Shapes from `trace/models.py` (`as_short_dict`, `as_extended_dict`) and
 * `helpers/trace.py` (`TraceElement.as_dict`).
 */
export const TraceSummarySchema = z.looseObject({
  run_id: z.string(),
  item_id: z.string(),
  domain: z.string(),
  state: z.string(),
  script_execution: z.string().nullable().default(null),
  last_step: z.string().nullable().default(null),
  timestamp: z.object({ start: z.string(), finish: z.string().nullable().default(null) }),
  error: z.string().optional(),
  /** Automations only: the trigger's description ("state of binary_sensor.hall_motion"). */
  trigger: z.string().nullable().optional(),
});

export const TraceElementSchema = z.looseObject({
  path: z.string(),
  timestamp: z.string(),
  changed_variables: z.record(z.string(), z.unknown()).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  child_id: z.unknown().optional(),
});

export const TraceDetailSchema = TraceSummarySchema.extend({
  /** Steps by path, in the order the paths were first reached; each path holds every time it ran. */
  trace: z.record(z.string(), z.array(TraceElementSchema)).default({}),
  config: z.record(z.string(), z.unknown()).nullable().default(null),
});

export type TraceSummary = z.infer<typeof TraceSummarySchema>;
export type TraceElement = z.infer<typeof TraceElementSchema>;
export type TraceDetail = z.infer<typeof TraceDetailSchema>;

/** The REST path of an automation's or script's config (`config/view.py`); ids are path segments. */
export const configPath = (domain: "automation" | "script", id: string) => `config/${domain}/config/${encodeURIComponent(id)}`;

/** The reads behind each tool, for the one admin-only list: the tool is for whoever may make them. */
export const READS = {
  config: { rest: { method: "GET", path: configPath("automation", "id") } },
  saveConfig: { rest: { method: "POST", path: configPath("automation", "id") } },
  traceList: { websocket: "trace/list" },
  traceGet: { websocket: "trace/get" },
} as const satisfies Record<string, HaRequest>;

/** The saved config with this id, or null when there is none (HA answers 404). */
export async function savedConfig(ha: CallerHa, domain: "automation" | "script", id: string): Promise<Record<string, unknown> | null> {
  try {
    return await ha.restGet<Record<string, unknown>>(configPath(domain, id));
  } catch (err) {
    if (err instanceof HaRestError && err.status === 404) return null;
    throw err;
  }
}

/** An automation's config through its entity (`automation/config`): the one way to read an automation that has no id. */
export async function configOfEntity(ha: CallerHa, entityId: string): Promise<Record<string, unknown> | null> {
  try {
    const answer = await ha.sendCommand<{ config?: Record<string, unknown> }>({ type: "automation/config", entity_id: entityId });
    return answer.config ?? null;
  } catch (err) {
    if (err instanceof HaCommandError && err.code === "not_found") return null;
    throw err;
  }
}

/** The stored runs of one item, newest first. */
export async function listRuns(ha: CallerHa, domain: "automation" | "script", itemId: string): Promise<TraceSummary[]> {
  const answer = await ha.sendCommand<unknown[]>({ type: "trace/list", domain, item_id: itemId });
  const runs = (Array.isArray(answer) ? answer : []).flatMap((t) => {
    const parsed = TraceSummarySchema.safeParse(t);
    return parsed.success ? [parsed.data] : [];
  });
  return runs.sort((a, b) => Date.parse(b.timestamp.start) - Date.parse(a.timestamp.start));
}

/** One run's whole trace; undefined when HA has no such run (`not_found`). */
export async function getRun(ha: CallerHa, domain: "automation" | "script", itemId: string, runId: string): Promise<TraceDetail | undefined> {
  try {
    return TraceDetailSchema.parse(await ha.sendCommand({ type: "trace/get", domain, item_id: itemId, run_id: runId }));
  } catch (err) {
    if (err instanceof HaCommandError && err.code === "not_found") return undefined;
    throw err;
  }
}
