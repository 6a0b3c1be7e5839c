import type { HouseAutomationRun } from "../house-logic-schema.js";
import { isoTime } from "../time.js";
import type { AutomationHost } from "./host.js";
import { runAutomation, type AutomationItem, type RunMode } from "./runner.js";
import type { TraceStore } from "./trace.js";
import { numericTriggerVariables, stateTriggerVariables, timeTriggerVariables, triggerData } from "./triggers.js";

/**
 * Plays the runs a house records before start through each automation's own
 * config, reading states from the recorder at that moment and changing
 * nothing, so the traces HA would have restored at start say what the
 * history says. The latest run that got past its conditions sets
 * `last_triggered`, as it did in HA.
 */
export function replayRuns(o: { host: AutomationHost; traces: TraceStore; items: AutomationItem[]; runs: HouseAutomationRun[]; mode: RunMode }): void {
  const { host } = o;
  const tz = host.house.config.time_zone;
  const triggered = new Map<string, number>();
  for (const run of [...o.runs].sort((a, b) => a.at - b.at)) {
    const item = o.items.find((i) => i.config.id === run.automation) ?? o.items.find((i) => i.config.id === undefined && i.config.alias === run.automation);
    const t = item?.config.triggers[run.trigger];
    if (!item || !t) continue;
    let variables: Record<string, unknown>;
    if (t.trigger === "state" || t.trigger === "numeric_state") {
      const entityId = (t.entity_id as string[])[0]!;
      const before = host.stateAt(entityId, run.at - 1);
      const after = host.stateAt(entityId, run.at);
      variables = t.trigger === "state" ? stateTriggerVariables(t, run.trigger, entityId, before, after) : numericTriggerVariables(t, run.trigger, entityId, before, after);
    } else if (t.trigger === "time" || t.trigger === "sun") variables = timeTriggerVariables(t, run.trigger, run.at, tz);
    else variables = { ...triggerData(t, run.trigger), platform: t.trigger, description: String(t.trigger) };
    const trace = runAutomation({ host, traces: o.traces, item, trigger: { index: run.trigger, variables }, parent: undefined, skipCondition: false, mode: { ...o.mode, pastAt: run.at } });
    if (trace.tracer.elements.has("action/0")) {
      const actionStart = trace.tracer.elements.get("action/0")?.[0]?.timestampMs ?? trace.startMs;
      triggered.set(item.entityId, actionStart);
    }
  }
  for (const [entityId, at] of triggered) {
    const s = host.getState(entityId);
    const current = typeof s?.attributes.last_triggered === "string" ? Date.parse(s.attributes.last_triggered) : -Infinity;
    if (s && at > current) host.setState(entityId, s.state, { ...s.attributes, last_triggered: isoTime(at) }, host.newContext());
  }
}
