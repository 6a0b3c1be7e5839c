import type { HomeIndex } from "../../indexer/index.js";
import { configAt, conditionText, stepKind, topStep } from "./config-paths.js";
import { entityName } from "./resolve.js";
import type { TraceDetail, TraceElement } from "./traces.js";
import { spokenTime } from "./when.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const OUTCOMES = ["finished", "condition_failed", "error", "stopped", "running"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** One run told as a story, with the facts it was told from. */
export interface RunStory {
  runId: string;
  startMs: number;
  outcome: Outcome;
  /** What started it, in words ("Hall Motion (binary_sensor.hall_motion) turning on"). */
  trigger: string;
  /** The condition that stopped the run: its trace path (`condition/1`, or `action/2` for a condition step) and its words. */
  failedCondition?: { path: string; text: string };
  error?: string;
  narrative: string;
}

export interface StoryContext {
  index: HomeIndex;
  now: number;
  zone: string;
  /** The automation has no id: HA never finishes its traces. */
  noId?: boolean;
}

/** Every element of a trace in the order HA recorded the paths, each path's repeats in turn. */
export const elementsOf = (trace: TraceDetail): TraceElement[] => Object.values(trace.trace).flat();

/**
 * The outcome from the trace: `script_execution` says how the run ended,
 * and for `aborted` the failing step says why (a condition step in the
 * actions that was false, or a stop with an error). Runs of an automation
 * without an id are never finished by HA and stay `running`.
 */
export function outcomeOf(trace: TraceDetail): Outcome {
  if (trace.state === "running") return "running";
  switch (trace.script_execution) {
    case "finished":
      return "finished";
    case "failed_conditions":
      return "condition_failed";
    case "error":
      return "error";
    case "aborted":
      return failingCondition(elementsOf(trace)) ? "condition_failed" : "stopped";
    default:
      // cancelled, failed_single, failed_max_runs and whatever a newer HA adds: the run was stopped from outside.
      return "stopped";
  }
}

/** The condition step that was false: the top one of its kind (the condition itself, not one of its entities). */
function failingCondition(elements: TraceElement[]): TraceElement | undefined {
  const failed = elements.filter((e) => e.result?.result === false && stepKind(e.path) === "condition");
  return failed.sort((a, b) => a.path.split("/").length - b.path.split("/").length)[0];
}

/** What the failed condition saw, from its deepest step: "Hallway Ceiling (light.hallway_ceiling) was on, not off". */
function whatItSaw(elements: TraceElement[], top: TraceElement, trace: TraceDetail, index: HomeIndex): string | undefined {
  const inside = elements.filter((e) => (e.path === top.path || e.path.startsWith(`${top.path}/`)) && e.result?.result === false);
  const deepest = inside.sort((a, b) => b.path.split("/").length - a.path.split("/").length)[0] ?? top;
  const r = deepest.result ?? {};
  if (deepest.error) return deepest.error;
  // A condition step records the state it saw, never the entity: that sits in the config at the same path.
  const entity = configAt(trace.config, deepest.path);
  const who = typeof entity === "string" && entity.includes(".") ? entityName(index, entity) : "it";
  if (typeof r.message === "string") return r.message;
  if (r.state !== undefined && r.wanted_state !== undefined) return `${who} was ${String(r.state)}, not ${String(r.wanted_state)}`;
  if (r.state !== undefined && r.duration !== undefined) return `${who} was ${String(r.state)}, but not for long enough`;
  const bounds = ["wanted_state_above", "wanted_state_below"].filter((k) => r[k] !== undefined).map((k) => `${k.endsWith("above") ? "above" : "below"} ${String(r[k])}`);
  if (r.state !== undefined && bounds.length) return `${who} was ${String(r.state)}, not ${bounds.join(" and ")}`;
  return undefined;
}

const changeWords = (to: unknown) => (to === "on" ? "turning on" : to === "off" ? "turning off" : `changing to ${JSON.stringify(to)}`);

/** What started the run, in words, from the trigger step's variables (HA's `trigger` variable). */
export function triggerWords(trace: TraceDetail, index: HomeIndex): string {
  const step = Object.entries(trace.trace).find(([path]) => path === "trigger" || path.startsWith("trigger/"));
  const t = step?.[1][0]?.changed_variables?.trigger;
  if (step?.[0] === "trigger" && !isObj(t)) return "a manual run (automation.trigger)";
  if (!isObj(t)) return trace.trigger ?? (trace.domain === "script" ? "a call of the script" : "its trigger");
  const entity = typeof t.entity_id === "string" ? entityName(index, t.entity_id) : undefined;
  const to = isObj(t.to_state) ? t.to_state.state : undefined;
  switch (t.platform) {
    case "state":
      return entity ? `${entity} ${changeWords(to)}` : "a state change";
    case "numeric_state":
      return entity ? `${entity} reaching ${String(to)}` : "a value crossing its threshold";
    case "time":
      return "its time trigger";
    case "time_pattern":
      return "its time pattern";
    case "sun":
      return typeof t.event === "string" ? `${t.event}${t.offset ? " (with an offset)" : ""}` : "the sun";
    case "event":
      return isObj(t.event) && typeof t.event.event_type === "string" ? `the event ${t.event.event_type}` : "an event";
    default:
      return typeof t.description === "string" ? t.description : `a ${String(t.platform ?? "trigger")} trigger`;
  }
}

/** What an action step did, in words: "light.turn_on on Hallway Ceiling (light.hallway_ceiling)". */
function actionWords(e: TraceElement, index: HomeIndex): string | undefined {
  const params = e.result?.params;
  if (!isObj(params)) return undefined;
  const target = isObj(params.target) ? params.target.entity_id : undefined;
  const ids = (Array.isArray(target) ? target : target === undefined ? [] : [target]).map(String);
  return `${String(params.domain)}.${String(params.service)}${ids.length ? ` on ${ids.map((id) => entityName(index, id)).join(", ")}` : ""}`;
}

/** Tells one run: what started it, each condition, what it did, and how it ended. */
export function tellRun(trace: TraceDetail, ctx: StoryContext): RunStory {
  const { index } = ctx;
  const elements = elementsOf(trace);
  const outcome = outcomeOf(trace);
  const startMs = Date.parse(trace.timestamp.start);
  const trigger = triggerWords(trace, index);
  const parts = [`triggered by ${trigger} at ${spokenTime(startMs, ctx.now, ctx.zone)}`];
  const failing = outcome === "condition_failed" ? failingCondition(elements) : undefined;
  let failedCondition: RunStory["failedCondition"];
  let error = trace.error;
  // Each top-level step once: the condition or action itself, its inner steps told through it.
  const tops = new Map<string, TraceElement>();
  for (const e of elements) {
    const top = topStep(e.path);
    if (e.path.startsWith("trigger") || tops.has(top)) continue;
    tops.set(top, elements.find((x) => x.path === top) ?? e);
  }
  let actions = 0;
  for (const [path, e] of tops) {
    const config = configAt(trace.config, path);
    const isCondition = stepKind(path) === "condition" || (isObj(config) && Object.hasOwn(config, "condition") && !Object.hasOwn(config, "action"));
    if (isCondition) {
      const text = conditionText(config, (id) => entityName(index, id));
      if (failing && topStep(failing.path) === path) {
        failedCondition = { path, text };
        const saw = whatItSaw(elements, failing, trace, index);
        parts.push(`the condition '${text}' failed${saw ? `: ${saw}` : ""}`);
      } else if (e.error) parts.push(`the condition '${text}' could not be checked: ${e.error}`);
      else parts.push(`the condition '${text}' passed`);
      continue;
    }
    const words = actionWords(e, index) ?? describeStep(config);
    if (e.error) {
      error ??= e.error;
      parts.push(`${words} failed: ${e.error.replace(/\.$/, "")}`);
    } else if (actions++ < 4) parts.push(`ran ${words}`);
  }
  if (actions > 4) parts.push(`and ${actions - 4} more steps`);
  parts.push(ending(outcome, trace, failedCondition, ctx.noId));
  const narrative = `${capitalise(parts.filter(Boolean).join("; "))}.`;
  return { runId: trace.run_id, startMs, outcome, trigger, ...(failedCondition ? { failedCondition } : {}), ...(error ? { error } : {}), narrative };
}

function describeStep(config: unknown): string {
  if (!isObj(config)) return "a step";
  for (const key of ["delay", "wait_template", "wait_for_trigger", "event", "scene", "variables", "stop", "choose", "if", "repeat", "parallel", "sequence"]) {
    if (Object.hasOwn(config, key)) return key === "stop" ? `stop "${String(config.stop)}"` : `a ${key.replace(/_/g, " ")} step`;
  }
  return "a step";
}

function ending(outcome: Outcome, trace: TraceDetail, failed: RunStory["failedCondition"], noId: boolean | undefined): string {
  switch (outcome) {
    case "finished":
      return "it finished";
    case "condition_failed":
      return failed?.path.startsWith("condition") ? "so none of its actions ran" : "so its remaining actions did not run";
    case "error":
      return "the run stopped there";
    case "stopped":
      return `it was stopped (${trace.script_execution ?? "stopped"})`;
    case "running":
      return noId ? "Home Assistant never finishes the trace of an automation without an id, so this run still shows as running" : "it is still running";
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
