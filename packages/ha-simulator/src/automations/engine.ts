import type { HassContext, HassState } from "../common/index.js";
import { ConfigInvalid, validateAutomation, validateScript } from "./config.js";
import type { AutomationHost } from "./host.js";
import { automationItems, houseScripts, scriptItems } from "./items.js";
import { replayRuns } from "./replay.js";
import { runAutomation, runScriptItem, type AutomationItem, type RunMode, type ScriptItem } from "./runner.js";
import { TraceStore, type RunTrace } from "./trace.js";
import { dueTimes, numericTriggerMatches, numericTriggerVariables, stateTriggerMatches, stateTriggerVariables, timeTriggerVariables } from "./triggers.js";
import { periodMs } from "./config.js";

type Obj = Record<string, unknown>;
type Watch = { item: AutomationItem; index: number; t: Obj };

/** What a bus offers the engine for event triggers. */
export interface EventSource {
  listen(eventType: string, listener: (event: { eventType: string; data: Record<string, unknown>; context: HassContext; timeFiredMs: number }) => void): () => void;
}

/**
 * Home Assistant's automation and script integrations for the simulator:
 * automations.yaml and scripts.yaml, their entities, the triggers they listen
 * to, their runs and the traces those leave, and the config views that edit
 * them. Runs fired by a state change are queued and run one after another,
 * as HA runs them as tasks, so an automation can never recurse into itself.
 */
export class AutomationEngine {
  readonly traces = new TraceStore();
  private automationsYaml: Obj[] = [];
  private scriptsYaml: Record<string, Obj> = {};
  private items: AutomationItem[] = [];
  private scripts = new Map<string, ScriptItem>();
  private byEntity = new Map<string, Watch[]>();
  private timed: Watch[] = [];
  private pending: { watch: Watch; entityId: string; dueMs: number; vars: Obj; context: HassContext }[] = [];
  private eventUnsubs: (() => void)[] = [];
  private queue: (() => void)[] = [];
  private draining = false;
  private lastTick: number;

  constructor(
    private readonly host: AutomationHost,
    private readonly events: EventSource,
    private readonly defer: (run: () => void) => void = (run) => setImmediate(run),
  ) {
    this.lastTick = host.now();
  }

  /** Loads automations.yaml and scripts.yaml from the house and replays the runs it records before start. */
  start(): void {
    this.automationsYaml = structuredClone(this.host.house.automations);
    this.scriptsYaml = houseScripts(this.host);
    this.scripts = scriptItems(this.host, this.scriptsYaml);
    this.loadAutomations();
    replayRuns({ host: this.host, traces: this.traces, items: this.items, runs: this.host.house.automation_runs, mode: this.mode({}) });
  }

  private mode(base: RunMode): RunMode {
    return { ...base, runScript: (id, variables, context, mode) => this.runScript(id, variables, context, mode) };
  }

  private loadAutomations(onlyId?: string): void {
    let items: AutomationItem[];
    if (onlyId === undefined) items = automationItems(this.host, this.automationsYaml).items;
    else {
      // A reload with an id (what the config view asks for) re-creates that automation only.
      const fresh = automationItems(this.host, this.automationsYaml.filter((c) => c.id === onlyId)).items;
      items = [...this.items.filter((i) => i.config.id !== onlyId), ...fresh];
    }
    for (const old of this.items) {
      if (!items.some((i) => i.entityId === old.entityId) && this.host.getState(old.entityId)) this.host.unload(old.entityId);
    }
    this.items = items;
    this.byEntity.clear();
    this.timed = [];
    for (const u of this.eventUnsubs) u();
    this.eventUnsubs = [];
    for (const item of items) {
      item.config.triggers.forEach((t, index) => {
        if (t.enabled === false) return;
        const watch = { item, index, t };
        if (t.trigger === "state" || t.trigger === "numeric_state") {
          for (const id of t.entity_id as string[]) this.byEntity.set(id, [...(this.byEntity.get(id) ?? []), watch]);
        } else if (t.trigger === "time" || t.trigger === "sun") this.timed.push(watch);
        else if (t.trigger === "event" && typeof t.event_type === "string") {
          const wanted = (typeof t.event_data === "object" && t.event_data !== null ? t.event_data : {}) as Obj;
          this.eventUnsubs.push(
            this.events.listen(t.event_type, (e) => {
              if (Object.entries(wanted).every(([k, v]) => e.data[k] === v)) this.fire(watch, eventVariables(t, index, e), e.context);
            }),
          );
        }
      });
    }
  }

  /** A state changed in the home: state and numeric_state triggers that match run (after `for`, if they have one). */
  onStateChanged(entityId: string, oldS: HassState | undefined, newS: HassState | undefined, context: HassContext): void {
    if (this.pending.length > 0) this.pending = this.pending.filter((p) => p.entityId !== entityId || stateTriggerMatches(p.watch.t, oldS, newS) || newS?.state === oldS?.state);
    const watches = this.byEntity.get(entityId);
    if (!watches) return;
    for (const watch of watches) {
      const { t, index } = watch;
      const state = t.trigger === "state";
      const hit = state ? stateTriggerMatches(t, oldS, newS) : numericTriggerMatches(t, oldS, newS, (id) => this.host.getState(id));
      if (!hit) continue;
      const vars = state ? stateTriggerVariables(t, index, entityId, oldS, newS) : numericTriggerVariables(t, index, entityId, oldS, newS);
      const forMs = periodMs(t.for);
      if (forMs) this.pending.push({ watch, entityId, dueMs: this.host.now() + forMs, vars, context });
      else this.fire(watch, vars, context);
    }
  }

  /** Fires what the clock says is due since the last tick: time and sun triggers, and `for` periods that held. */
  tick(): void {
    const now = this.host.now();
    if (now <= this.lastTick) return;
    const { time_zone: tz, latitude, longitude } = this.host.house.config;
    for (const watch of this.timed) {
      for (const at of dueTimes(watch.t, this.lastTick, now, tz, { latitude, longitude }, (id) => this.host.getState(id))) {
        this.fire(watch, timeTriggerVariables(watch.t, watch.index, at, tz), undefined);
      }
    }
    const due = this.pending.filter((p) => p.dueMs <= now);
    this.pending = this.pending.filter((p) => p.dueMs > now);
    for (const p of due) this.fire(p.watch, p.vars, p.context);
    this.lastTick = now;
  }

  private fire(watch: Watch, vars: Obj, context: HassContext | undefined): void {
    this.enqueue(() => {
      if (this.host.getState(watch.item.entityId)?.state !== "on") return;
      runAutomation({ host: this.host, traces: this.traces, item: watch.item, trigger: { index: watch.index, variables: vars }, parent: context, skipCondition: false, mode: this.mode({}) });
    });
  }

  private enqueue(run: () => void): void {
    this.queue.push(run);
    if (this.draining) return;
    this.draining = true;
    this.defer(() => {
      while (this.queue.length > 0) this.queue.shift()!();
      this.draining = false;
    });
  }

  /** `automation.trigger`: runs the actions now (skipping conditions unless asked), even when the automation is off. */
  trigger(entityId: string, o: { skipCondition: boolean; variables: Obj; context: HassContext }): boolean {
    const item = this.items.find((i) => i.entityId === entityId);
    if (!item) return false;
    runAutomation({ host: this.host, traces: this.traces, item, trigger: { index: undefined, variables: { ...o.variables, platform: null } }, parent: o.context, skipCondition: o.skipCondition, mode: this.mode({}) });
    return true;
  }

  /** `script.turn_on` and `script.<key>`: runs the script now; undefined when the entity is no script the engine knows. */
  runScript(entityId: string, variables: Obj, context: HassContext, mode: RunMode = {}): RunTrace | undefined {
    const item = this.scripts.get(entityId);
    if (!item) return undefined;
    return runScriptItem({ host: this.host, traces: this.traces, item, variables, parent: context, mode: this.mode(mode) });
  }

  hasScript(entityId: string): boolean {
    return this.scripts.has(entityId);
  }

  /** `automation.reload` (all, or the one with `id`): re-reads automations.yaml; changed automations start over. */
  reload(id?: string): void {
    this.loadAutomations(id);
  }

  reloadScripts(): void {
    const before = [...this.scripts.keys()];
    this.scripts = scriptItems(this.host, this.scriptsYaml);
    for (const id of before) if (!this.scripts.has(id) && this.host.getState(id)) this.host.unload(id);
  }

  /** `automation/config`: the raw config behind an automation entity. */
  configOfEntity(entityId: string): Obj | undefined {
    return this.items.find((i) => i.entityId === entityId)?.raw;
  }

  // The config views (`config/automation.py`, `config/script.py`).

  automationConfig(key: string): Obj | undefined {
    return this.automationsYaml.find((c) => c.id === key);
  }

  /** Validates and writes one automation; returns the error text HA would put after "Message malformed: ". */
  saveAutomation(key: string, body: Obj): string | undefined {
    try {
      validateAutomation(body);
    } catch (err) {
      if (err instanceof ConfigInvalid) return err.message;
      throw err;
    }
    const value: Obj = { id: key };
    for (const k of ["alias", "description", "trigger", "condition", "action"]) if (Object.hasOwn(body, k)) value[k] = body[k];
    Object.assign(value, body);
    let updated = false;
    this.automationsYaml = this.automationsYaml.map((c) => {
      // HA gives every automation without an id one, whenever it writes the file.
      if (c.id === undefined) return { ...c, id: randomHex() };
      if (c.id === key) {
        updated = true;
        return value;
      }
      return c;
    });
    if (!updated) this.automationsYaml.push(value);
    return undefined;
  }

  deleteAutomation(key: string): boolean {
    const i = this.automationsYaml.findIndex((c) => c.id === key);
    if (i < 0) return false;
    this.automationsYaml.splice(i, 1);
    return true;
  }

  /** The DELETE hook: the registry entry of the deleted automation goes. */
  forgetAutomation(key: string): void {
    const entityId = this.host.registeredEntityId("automation", key);
    if (entityId) this.host.removeEntity(entityId);
    this.items = this.items.filter((i) => i.entityId !== entityId);
  }

  scriptConfig(key: string): Obj | undefined {
    return Object.hasOwn(this.scriptsYaml, key) ? this.scriptsYaml[key] : undefined;
  }

  saveScript(key: string, body: Obj): string | undefined {
    try {
      validateScript(body);
    } catch (err) {
      if (err instanceof ConfigInvalid) return err.message;
      throw err;
    }
    this.scriptsYaml = { ...this.scriptsYaml, [key]: body };
    return undefined;
  }

  deleteScript(key: string): boolean {
    if (!Object.hasOwn(this.scriptsYaml, key)) return false;
    const { [key]: _gone, ...rest } = this.scriptsYaml;
    this.scriptsYaml = rest;
    return true;
  }

  forgetScript(key: string): void {
    const entityId = this.host.registeredEntityId("script", key);
    if (entityId) this.host.removeEntity(entityId);
    this.scripts.delete(entityId ?? `script.${key}`);
  }
}

function randomHex(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

function eventVariables(t: Obj, index: number, e: { eventType: string; data: Record<string, unknown>; context: HassContext; timeFiredMs: number }): Obj {
  return {
    id: t.id === undefined ? String(index) : String(t.id),
    idx: String(index),
    alias: t.alias ?? null,
    platform: "event",
    event: { event_type: e.eventType, data: e.data, origin: "LOCAL", time_fired: new Date(e.timeFiredMs).toISOString(), context: e.context },
    description: `event '${e.eventType}'`,
  };
}
