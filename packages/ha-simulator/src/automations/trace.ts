import { randomBytes } from "node:crypto";
import { dict } from "../common/index.js";
import type { HassContext } from "../common/index.js";
import { sameValue } from "../state.js";
import { isoTime } from "../time.js";

/**
 * One step of a run, as HA's `TraceElement.as_dict` writes it
 * (`helpers/trace.py`): its path in the config, when it ran, which
 * variables changed since the step before, its error and its result.
 */
export class TraceElement {
  error: string | undefined;
  result: Record<string, unknown> | undefined;
  childId: { domain: string; item_id: string; run_id: string } | undefined;

  constructor(
    readonly path: string,
    readonly timestampMs: number,
    readonly changedVariables: Record<string, unknown> | undefined,
  ) {}

  setResult(result: Record<string, unknown>): void {
    this.result = { ...result };
  }

  updateResult(result: Record<string, unknown>): void {
    this.result = { ...(this.result ?? {}), ...result };
  }

  asDict(): Record<string, unknown> {
    const out = dict<unknown>({ path: this.path, timestamp: isoTime(this.timestampMs) });
    if (this.childId) out.child_id = this.childId;
    if (this.changedVariables && Object.keys(this.changedVariables).length > 0) out.changed_variables = this.changedVariables;
    if (this.error !== undefined) out.error = this.error;
    if (this.result !== undefined) out.result = this.result;
    return out;
  }
}

/**
 * The trace of one run being recorded: elements by path in the order paths
 * first appeared (HA's `trace_cv` dict), the path stack, and the variables of
 * the last element, from which each new element's `changed_variables` is computed.
 */
export class Tracer {
  readonly elements = new Map<string, TraceElement[]>();
  private readonly path: string[] = [];
  private lastVariables: Record<string, unknown> | undefined;

  constructor(private readonly now: () => number) {}

  /** Runs `fn` one or more levels deeper in the config tree (`trace_path`). */
  within<T>(suffix: string[], fn: () => T): T {
    this.path.push(...suffix);
    try {
      return fn();
    } finally {
      this.path.length -= suffix.length;
    }
  }

  /** Appends an element at the current path; repeated actions keep at most 20 per path (ACTION_TRACE_NODE_MAX_LEN). */
  append(variables: Record<string, unknown>): TraceElement {
    const last = this.lastVariables ?? {};
    const changed = dict<unknown>();
    for (const [k, v] of Object.entries(variables)) if (!Object.hasOwn(last, k) || !sameValue(last[k], v)) changed[k] = v;
    this.lastVariables = { ...variables };
    const path = this.path.join("/");
    const element = new TraceElement(path, this.now(), changed);
    let list = this.elements.get(path);
    if (!list) this.elements.set(path, (list = []));
    list.push(element);
    if (list.length > 20) list.shift();
    return element;
  }

  lastPath(): string | null {
    let last: string | null = null;
    for (const key of this.elements.keys()) last = key;
    return last;
  }
}

/** The outcome words HA stores in `script_execution` (`helpers/script.py`, automation `failed_conditions`). */
export type ScriptExecution = "finished" | "aborted" | "cancelled" | "failed_conditions" | "failed_single" | "failed_max_runs" | "error";

/**
 * A run's trace, as `trace/models.py` keeps it: `as_short_dict` for
 * `trace/list`, `as_extended_dict` for `trace/get`. Automations add the
 * trigger's description to the summary (`automation/trace.py`).
 */
export class RunTrace {
  readonly runId = randomBytes(16).toString("hex");
  readonly startMs: number;
  finishMs: number | null = null;
  state: "running" | "stopped" = "running";
  scriptExecution: ScriptExecution | null = null;
  error: string | undefined;
  triggerDescription: string | null = null;
  readonly tracer: Tracer;

  constructor(
    readonly domain: "automation" | "script",
    /** The config id (`None` for an automation without one, as HA writes the key). */
    readonly itemId: string,
    readonly config: Record<string, unknown> | null,
    readonly context: HassContext,
    now: () => number,
  ) {
    this.startMs = now();
    this.tracer = new Tracer(now);
  }

  finish(atMs: number, execution: ScriptExecution | null): void {
    this.finishMs = atMs;
    this.state = "stopped";
    this.scriptExecution = execution;
  }

  shortDict(): Record<string, unknown> {
    const out = dict<unknown>({
      last_step: this.tracer.lastPath(),
      run_id: this.runId,
      state: this.state,
      script_execution: this.scriptExecution,
      timestamp: { start: isoTime(this.startMs), finish: this.finishMs === null ? null : isoTime(this.finishMs) },
      domain: this.domain,
      item_id: this.itemId,
    });
    if (this.error !== undefined) out.error = this.error;
    if (this.domain === "automation") out.trigger = this.triggerDescription;
    return out;
  }

  extendedDict(): Record<string, unknown> {
    const trace = dict<unknown[]>();
    for (const [path, list] of this.tracer.elements) trace[path] = list.map((e) => e.asDict());
    return { ...this.shortDict(), trace, config: this.config, blueprint_inputs: null, context: this.context };
  }
}

/**
 * Stored traces per item (`trace/util.py`): one bucket per outcome, each
 * keeping the latest `stored_traces` runs (default 5), so a burst of failed
 * conditions cannot push out the last run that did something. Lists give runs
 * oldest first.
 */
export class TraceStore {
  private readonly items = new Map<string, Map<string, RunTrace[]>>();

  store(trace: RunTrace, limit: number): void {
    const key = `${trace.domain}.${trace.itemId}`;
    let buckets = this.items.get(key);
    if (!buckets) this.items.set(key, (buckets = new Map()));
    const bucketKey = trace.state !== "stopped" ? "running" : (trace.scriptExecution ?? "error");
    for (const list of buckets.values()) {
      const i = list.indexOf(trace);
      if (i >= 0) list.splice(i, 1);
    }
    let bucket = buckets.get(bucketKey);
    if (!bucket) buckets.set(bucketKey, (bucket = []));
    bucket.push(trace);
    for (const list of buckets.values()) while (list.length > limit) list.shift();
  }

  list(domain: string, itemId?: string): RunTrace[] {
    const out: RunTrace[] = [];
    for (const [key, buckets] of this.items) {
      if (itemId === undefined ? !key.startsWith(`${domain}.`) : key !== `${domain}.${itemId}`) continue;
      out.push(...[...buckets.values()].flat().sort((a, b) => a.startMs - b.startMs));
    }
    return out;
  }

  get(domain: string, itemId: string, runId: string): RunTrace | undefined {
    return this.list(domain, itemId).find((t) => t.runId === runId);
  }

  /** `trace/contexts`: context id → the run it started. */
  contexts(domain?: string, itemId?: string): Record<string, { run_id: string; domain: string; item_id: string }> {
    const out = dict<{ run_id: string; domain: string; item_id: string }>();
    for (const [key, buckets] of this.items) {
      if (domain !== undefined && key !== `${domain}.${itemId}`) continue;
      for (const t of [...buckets.values()].flat()) out[t.context.id] = { run_id: t.runId, domain: t.domain, item_id: t.itemId };
    }
    return out;
  }
}
