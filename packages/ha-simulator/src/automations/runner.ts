import type { HassContext, HassState } from "../common/index.js";
import { isoTime } from "../time.js";
import { runSequence, type SequenceOutcome } from "./actions.js";
import { checkConditions } from "./conditions.js";
import type { AutomationConfig, ScriptConfig } from "./config.js";
import type { AutomationHost } from "./host.js";
import { StepError, type RunContext } from "./run-context.js";
import { RunTrace, type TraceElement, type TraceStore } from "./trace.js";

type Obj = Record<string, unknown>;

export interface AutomationItem {
  raw: Obj;
  config: AutomationConfig;
  entityId: string;
}

export interface ScriptItem {
  key: string;
  raw: Obj;
  config: ScriptConfig;
  entityId: string;
}

/** How a run sees the world: live, or replayed at a time before start against the recorder. */
export interface RunMode {
  /** Set for a run before start: when it happened. Nothing changes in the home then. */
  pastAt?: number;
  /** Runs a script from inside another run (a `script.*` call), returning its trace. */
  runScript?: (entityId: string, variables: Obj, context: HassContext, mode: RunMode) => RunTrace | undefined;
}

/** A clock for a run: live time, or, for a run before start, its moment plus a few milliseconds per step. */
function clock(host: AutomationHost, mode: RunMode): () => number {
  if (mode.pastAt === undefined) return () => host.now();
  let t = mode.pastAt;
  let k = 0;
  return () => (t += k++ === 0 ? 0 : 1 + (k % 3));
}

function runContext(host: AutomationHost, trace: RunTrace, variables: Obj, now: () => number, mode: RunMode): RunContext {
  const past = mode.pastAt;
  return {
    tracer: trace.tracer,
    variables,
    config: host.house.config,
    now,
    context: trace.context,
    lookup: (id) => (past === undefined ? host.getState(id) : host.stateAt(id, past)),
    fireEvent: (eventType, data) => {
      if (past === undefined) host.fireEvent(eventType, data, trace.context);
    },
    callService: ({ domain, service, data, target, element }) => {
      if (domain === "script" && mode.runScript) {
        const ids = service === "turn_on" ? [target.entity_id].flat().map(String) : [`script.${service}`];
        for (const id of ids) linkChild(element, mode.runScript(id, (data.variables as Obj | undefined) ?? {}, trace.context, mode));
        return;
      }
      const failure = past === undefined ? host.callService({ domain, service, data, target, context: trace.context }) : host.checkService(domain, service);
      if (failure) throw new StepError(failure.message);
    },
  };
}

function linkChild(element: TraceElement, child: RunTrace | undefined): void {
  if (child) element.childId = { domain: child.domain, item_id: child.itemId, run_id: child.runId };
}

/**
 * One automation run, as `AutomationEntity.async_trigger` does it: a trace
 * filed under the config id (`None` without one), the trigger as the first
 * step, the conditions (a failure ends the run as `failed_conditions` and
 * leaves `last_triggered` alone), then `last_triggered`, the
 * `automation_triggered` event and the actions. HA finishes only traces of
 * automations with an id; the others stay `running`.
 */
export function runAutomation(o: {
  host: AutomationHost;
  traces: TraceStore;
  item: AutomationItem;
  trigger: { index: number | undefined; variables: Obj };
  parent: HassContext | undefined;
  skipCondition: boolean;
  mode: RunMode;
}): RunTrace {
  const { host, item, mode } = o;
  const now = clock(host, mode);
  const context = host.newContext(null, o.parent?.id ?? null);
  const trace = new RunTrace("automation", item.config.id ?? "None", item.raw, context, now);
  o.traces.store(trace, item.config.storedTraces);
  const self: HassState | undefined = mode.pastAt === undefined ? host.getState(item.entityId) : host.stateAt(item.entityId, mode.pastAt);
  const variables: Obj = { this: self ?? null, ...item.config.variables, trigger: o.trigger.variables };
  const description = o.trigger.variables.description;
  trace.triggerDescription = typeof description === "string" ? description : null;
  const ctx = runContext(host, trace, variables, now, mode);
  trace.tracer.within(o.trigger.index === undefined ? ["trigger"] : ["trigger", String(o.trigger.index)], () => trace.tracer.append(variables));

  let outcome: SequenceOutcome;
  if (!o.skipCondition && item.config.conditions.length > 0 && !checkConditions(item.config.conditions, ctx)) {
    outcome = { execution: "failed_conditions" };
  } else {
    const started = now();
    if (mode.pastAt === undefined) {
      setRunning(host, item.entityId, started, 1, context);
      const data: Obj = { name: item.config.alias ?? item.entityId, entity_id: item.entityId };
      if (typeof description === "string") data.source = description;
      host.fireEvent("automation_triggered", data, context);
    }
    variables.context = context;
    outcome = trace.tracer.within(["action"], () => runSequence(item.config.actions, ctx));
    if (mode.pastAt === undefined) setRunning(host, item.entityId, undefined, 0, context);
  }
  if (outcome.error !== undefined) trace.error = outcome.error;
  if (item.config.id !== undefined) {
    trace.finish(now(), outcome.execution);
    o.traces.store(trace, item.config.storedTraces);
  }
  return trace;
}

/** A script run (`script/__init__.py`): a trace under the script's key, the steps under `sequence`. */
export function runScriptItem(o: { host: AutomationHost; traces: TraceStore; item: ScriptItem; variables: Obj; parent: HassContext | undefined; mode: RunMode }): RunTrace {
  const { host, item, mode } = o;
  const now = clock(host, mode);
  const context = host.newContext(null, o.parent?.id ?? null);
  const trace = new RunTrace("script", item.key, item.raw, context, now);
  o.traces.store(trace, item.config.storedTraces);
  const self = mode.pastAt === undefined ? host.getState(item.entityId) : host.stateAt(item.entityId, mode.pastAt);
  const variables: Obj = { this: self ?? null, ...o.variables, context };
  const ctx = runContext(host, trace, variables, now, mode);
  if (mode.pastAt === undefined) setRunning(host, item.entityId, now(), 1, context, "on");
  const outcome = trace.tracer.within(["sequence"], () => runSequence(item.config.sequence, ctx));
  if (mode.pastAt === undefined) setRunning(host, item.entityId, undefined, 0, context, "off");
  if (outcome.error !== undefined) trace.error = outcome.error;
  trace.finish(now(), outcome.execution);
  o.traces.store(trace, item.config.storedTraces);
  return trace;
}

/** The run counter (`current`) and, when a run starts, `last_triggered`, as HA writes them while a script runs. */
function setRunning(host: AutomationHost, entityId: string, startedMs: number | undefined, current: number, context: HassContext, state?: string): void {
  const s = host.getState(entityId);
  if (!s) return;
  const patch: Obj = { ...s.attributes, current };
  if (startedMs !== undefined) patch.last_triggered = isoTime(startedMs);
  host.setState(entityId, state ?? s.state, patch, context);
}
