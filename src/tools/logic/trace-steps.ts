import { z } from "zod";
import { stepKind } from "./config-paths.js";
import { elementsOf } from "./story.js";
import type { TraceDetail } from "./traces.js";
import { zonedIso } from "./when.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const StepSchema = z.object({
  path: z.string().describe("The step's trace path (singular: condition/0, action/1/then/0)."),
  kind: z.enum(["trigger", "condition", "action"]),
  result: z.record(z.string(), z.unknown()).optional(),
  changed_variables: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  timestamp: z.string(),
});
export type Step = z.infer<typeof StepSchema>;

/** About 10,000 tokens: a full trace beyond it is cut, in the order below, and the answer says how. */
export const MAX_FULL_CHARS = 40_000;
const MAX_TEXT_CHARS = 500;

/** A state object (`this`, `trigger.to_state`) reduced to what a reader needs of it. */
const isState = (v: unknown): v is Obj => isObj(v) && typeof v.entity_id === "string" && Object.hasOwn(v, "state") && Object.hasOwn(v, "attributes");
const shortState = (s: Obj) => ({ entity_id: s.entity_id, state: s.state, ...(s.last_changed ? { last_changed: s.last_changed } : {}) });

function mapDeep(value: unknown, f: (v: unknown) => unknown): unknown {
  const mapped = f(value);
  if (mapped !== value) return mapped;
  if (Array.isArray(value)) return value.map((v) => mapDeep(v, f));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapDeep(v, f)]));
  return value;
}

/** The trigger's variables in brief: what fired, from what to what. */
function briefTrigger(vars: Obj | undefined): Obj | undefined {
  const t = vars?.trigger;
  if (!isObj(t)) return undefined;
  const stateOf = (s: unknown) => (isObj(s) ? s.state : undefined);
  const brief: Obj = { platform: t.platform, ...(t.entity_id ? { entity_id: t.entity_id } : {}) };
  if (Object.hasOwn(t, "from_state")) brief.from = stateOf(t.from_state) ?? null;
  if (Object.hasOwn(t, "to_state")) brief.to = stateOf(t.to_state) ?? null;
  if (typeof t.description === "string") brief.description = t.description;
  return { trigger: brief };
}

/**
 * A run's steps. `summary`: every step with its result and error, and only
 * the trigger's variables, in brief. `full`: every step with all its
 * variables, within MAX_FULL_CHARS: state objects are shortened first, then
 * long texts, then the last steps are left out; `notes` says which was done.
 */
export function stepsOf(trace: TraceDetail, detail: "summary" | "full", zone: string): { steps: Step[]; notes: string[] } {
  const notes: string[] = [];
  const base = elementsOf(trace).map((e): Step => {
    const kind = stepKind(e.path);
    const vars = detail === "full" ? e.changed_variables : kind === "trigger" ? briefTrigger(e.changed_variables) : undefined;
    return {
      path: e.path,
      kind,
      timestamp: zonedIso(Date.parse(e.timestamp), zone, true),
      ...(e.result ? { result: e.result } : {}),
      ...(vars && Object.keys(vars).length ? { changed_variables: vars } : {}),
      ...(e.error ? { error: e.error } : {}),
    };
  });
  if (detail === "summary") {
    notes.push('Variables are left out but for the trigger\'s; detail "full" has them.');
    return { steps: base, notes };
  }
  let steps = base;
  const size = () => JSON.stringify(steps).length;
  if (size() > MAX_FULL_CHARS) {
    steps = steps.map((s) => ({ ...s, ...(s.changed_variables ? { changed_variables: mapDeep(s.changed_variables, (v) => (isState(v) ? shortState(v) : v)) as Obj } : {}) }));
    notes.push("State objects in the variables were shortened to entity_id, state and last_changed.");
  }
  if (size() > MAX_FULL_CHARS) {
    steps = steps.map((s) => mapDeep(s, (v) => (typeof v === "string" && v.length > MAX_TEXT_CHARS ? `${v.slice(0, MAX_TEXT_CHARS)}… (${v.length} characters)` : v)) as Step);
    notes.push(`Texts longer than ${MAX_TEXT_CHARS} characters were cut.`);
  }
  if (size() > MAX_FULL_CHARS) {
    const all = steps.length;
    while (steps.length > 1 && size() > MAX_FULL_CHARS) steps = steps.slice(0, -1);
    notes.push(`Only the first ${steps.length} of ${all} steps fit; the rest were left out. Home Assistant's trace view shows them all.`);
  }
  return { steps, notes };
}
