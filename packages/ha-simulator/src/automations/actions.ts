import { renderTemplate, TemplateError } from "../template/index.js";
import { checkTraced } from "./conditions.js";
import { actionKind, periodMs } from "./config.js";
import { ConditionError, StepError, type RunContext } from "./run-context.js";
import type { ScriptExecution } from "./trace.js";

type Obj = Record<string, unknown>;

/** Why a sequence stopped early: HA's _ConditionFail, _StopScript and _AbortScript. */
class Halt extends Error {
  constructor(readonly execution: ScriptExecution) {
    super(execution);
  }
}

export interface SequenceOutcome {
  execution: ScriptExecution;
  /** The text of the error that ended the run, as the trace's `error` shows it. */
  error?: string;
}

/**
 * Runs a sequence of actions the way `helpers/script.py` does: each step gets
 * an element at `<n>` under the current path, holding its result (for a
 * service call `{params, running_script}`) or its error. The run ends
 * `finished`, `aborted` (a condition step failed, or a stop with an error) or
 * with `error`, which the caller records on the trace.
 */
export function runSequence(actions: Obj[], ctx: RunContext): SequenceOutcome {
  try {
    steps(actions, ctx);
    return { execution: "finished" };
  } catch (err) {
    if (err instanceof Halt) return { execution: err.execution };
    if (err instanceof StepError || err instanceof ConditionError || err instanceof TemplateError) return { execution: "error", error: err.message };
    throw err;
  }
}

function steps(actions: Obj[], ctx: RunContext): void {
  for (let i = 0; i < actions.length; i++) ctx.tracer.within([String(i)], () => step(actions[i]!, ctx));
}

function step(a: Obj, ctx: RunContext): void {
  const element = ctx.tracer.append(ctx.variables);
  if (a.enabled === false) {
    element.setResult({ enabled: false });
    return;
  }
  try {
    switch (actionKind(a)) {
      case "call_service": {
        const [domain, service] = String(render(a.action, ctx)).split(".") as [string, string];
        const data = (render(a.data ?? a.data_template ?? {}, ctx) ?? {}) as Obj;
        const target = { ...((render(a.target ?? {}, ctx) ?? {}) as Obj) };
        if (a.entity_id !== undefined) target.entity_id = render(a.entity_id, ctx);
        const runningScript = (domain === "automation" && service === "trigger") || domain === "script" || domain === "python_script";
        element.setResult({ params: { domain, service, service_data: data, target }, running_script: runningScript });
        ctx.callService({ domain, service, data, target, element });
        return;
      }
      case "condition": {
        const ok = checkTraced(a, ctx, element);
        if (ok === false) throw new Halt("aborted");
        return;
      }
      case "delay": {
        // The simulator does not wait: the delay is recorded as done.
        element.setResult({ delay: (periodMs(render(a.delay, ctx)) ?? 0) / 1000, done: true });
        return;
      }
      case "fire_event": {
        const data = (render(a.event_data ?? {}, ctx) ?? {}) as Obj;
        element.setResult({ event: a.event, event_data: data });
        ctx.fireEvent(String(a.event), data);
        return;
      }
      case "activate_scene": {
        element.setResult({ scene: a.scene });
        ctx.callService({ domain: "scene", service: "turn_on", data: {}, target: { entity_id: a.scene }, element });
        return;
      }
      case "variables": {
        const vars = (render(a.variables, ctx) ?? {}) as Obj;
        Object.assign(ctx.variables, vars);
        return;
      }
      case "stop": {
        element.setResult({ stop: String(a.stop), error: a.error === true });
        throw new Halt(a.error === true ? "aborted" : "finished");
      }
      case "if": {
        const conditions = (Array.isArray(a.if) ? a.if : [a.if]) as Obj[];
        const passed = ctx.tracer.within(["if"], () => conditions.every((c, i) => ctx.tracer.within(["condition", String(i)], () => checkTraced(c, ctx)) !== false));
        element.setResult({ choice: passed ? "then" : "else" });
        const branch = passed ? a.then : a.else;
        if (Array.isArray(branch)) ctx.tracer.within([passed ? "then" : "else"], () => steps(branch as Obj[], ctx));
        return;
      }
      case "choose": {
        const options = (Array.isArray(a.choose) ? a.choose : [a.choose]) as Obj[];
        for (let i = 0; i < options.length; i++) {
          const conditions = (Array.isArray(options[i]!.conditions) ? options[i]!.conditions : [options[i]!.conditions]) as Obj[];
          const passed = ctx.tracer.within(["choose", String(i)], () => conditions.every((c, j) => ctx.tracer.within(["conditions", String(j)], () => checkTraced(c, ctx)) !== false));
          if (passed) {
            element.setResult({ choice: i });
            ctx.tracer.within(["choose", String(i), "sequence"], () => steps(options[i]!.sequence as Obj[], ctx));
            return;
          }
        }
        element.setResult({ choice: "default" });
        if (Array.isArray(a.default)) ctx.tracer.within(["default"], () => steps(a.default as Obj[], ctx));
        return;
      }
      case "sequence": {
        ctx.tracer.within(["sequence"], () => steps(a.sequence as Obj[], ctx));
        return;
      }
      default:
        throw new StepError(`The simulator does not run '${actionKind(a) ?? "unknown"}' actions`);
    }
  } catch (err) {
    if (err instanceof Halt) throw err;
    if (err instanceof Error) element.error = err.message;
    // continue_on_error lets ordinary Home Assistant errors pass, never a missing service or a bad template.
    if (a.continue_on_error === true && err instanceof StepError && !/ not found\.$/.test(err.message)) return;
    throw err;
  }
}

/** Renders templates anywhere in a value, as HA's `render_complex` does. */
function render(value: unknown, ctx: RunContext): unknown {
  if (typeof value === "string") {
    if (!/\{\{|\{%/.test(value)) return value;
    return renderTemplate(value, (id) => ctx.lookup(id), ctx.variables, { nowMs: ctx.now(), timeZone: ctx.config.time_zone }).result;
  }
  if (Array.isArray(value)) return value.map((v) => render(v, ctx));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, ctx)]));
  return value;
}
