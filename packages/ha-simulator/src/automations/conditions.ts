import type { HassState } from "../common/index.js";
import { localParts, fromLocal } from "../common/index.js";
import { nextSunEvent } from "../sun.js";
import { renderTemplate, TemplateError } from "../template/index.js";
import { isoTime } from "../time.js";
import { periodMs } from "./config.js";
import { ConditionError, type RunContext } from "./run-context.js";
import type { TraceElement } from "./trace.js";

type Obj = Record<string, unknown>;
const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/**
 * An automation's conditions, ANDed, as `helpers/condition.py`'s
 * ConditionsChecker runs them: each under the trace path `condition/<n>`,
 * stopping at the first that fails. A condition that cannot be checked logs
 * its error in the trace and counts as failed.
 */
export function checkConditions(conditions: Obj[], ctx: RunContext): boolean {
  let errors = false;
  for (let i = 0; i < conditions.length; i++) {
    try {
      const ok = ctx.tracer.within(["condition", String(i)], () => checkTraced(conditions[i]!, ctx));
      if (ok === false) return false;
    } catch (err) {
      if (!(err instanceof ConditionError)) throw err;
      errors = true;
    }
  }
  return !errors;
}

/**
 * `trace_condition`: an element at the current path (or the action's own when
 * `reuse` is given, as a condition step does), the check, then `{result}` merged in.
 */
export function checkTraced(cond: Obj, ctx: RunContext, reuse?: TraceElement): boolean | null {
  const element = reuse ?? ctx.tracer.append(ctx.variables);
  try {
    const result = check(cond, ctx, element);
    element.updateResult({ result });
    return result;
  } catch (err) {
    if (err instanceof ConditionError || err instanceof Error) element.error = err.message;
    throw err;
  }
}

function check(cond: Obj, ctx: RunContext, element: TraceElement): boolean | null {
  if (cond.enabled === false) return null;
  switch (cond.condition) {
    case "and":
    case "or":
    case "not":
      return compound(String(cond.condition), cond.conditions as Obj[], ctx);
    case "state":
      return perEntity(cond, ctx, "state", (s, el) => stateCheck(cond, s, ctx, el));
    case "numeric_state":
      return perEntity(cond, ctx, "numeric_state", (s, el) => numericCheck(cond, s, ctx, el));
    case "template":
      return templateCheck(String(cond.value_template), ctx, element);
    case "sun":
      return sunCheck((typeof cond.options === "object" && cond.options !== null ? cond.options : cond) as Obj, ctx, element);
    case "time":
      return timeCheck(cond, ctx, element);
    case "trigger": {
      const id = (ctx.variables.trigger as Obj | undefined)?.id;
      return list(cond.id).map(String).includes(String(id));
    }
    default:
      throw new ConditionError(String(cond.condition), "is not supported by the simulator");
  }
}

function compound(kind: string, conditions: Obj[], ctx: RunContext): boolean {
  const errors: string[] = [];
  for (let i = 0; i < conditions.length; i++) {
    try {
      const r = ctx.tracer.within(["conditions", String(i)], () => checkTraced(conditions[i]!, ctx));
      if (kind === "and" && r === false) return false;
      if (kind === "or" && r === true) return true;
      if (kind === "not" && r) return false;
    } catch (err) {
      if (!(err instanceof ConditionError)) throw err;
      errors.push(err.message);
    }
  }
  if (errors.length > 0) throw new ConditionError(kind, errors.join("; "));
  return kind !== "or";
}

/** State and numeric_state conditions check each entity under `entity_id/<n>`, with the entity's own trace element. */
function perEntity(cond: Obj, ctx: RunContext, kind: string, test: (s: HassState, el: TraceElement) => boolean): boolean {
  const ids = list(cond.entity_id).map(String);
  const any = cond.match === "any";
  let result = !any;
  const errors: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    try {
      const ok = ctx.tracer.within(["entity_id", String(i)], () => {
        const element = ctx.tracer.append(ctx.variables);
        try {
          const s = ctx.lookup(ids[i]!);
          if (!s) throw new ConditionError(kind, `unknown entity ${ids[i]}`);
          return test(s, element);
        } catch (err) {
          if (err instanceof Error) element.error = err.message;
          throw err;
        }
      });
      if (ok) result = true;
      else if (!any) return false;
    } catch (err) {
      if (!(err instanceof ConditionError)) throw err;
      errors.push(err.message);
    }
  }
  if (errors.length > 0) throw new ConditionError(kind, errors.join("; "));
  return result;
}

/** `condition.state`: the state (or attribute) equals one of the wanted ones; the trace records `{result, state, wanted_state}`. */
function stateCheck(cond: Obj, s: HassState, ctx: RunContext, element: TraceElement): boolean {
  const attribute = cond.attribute === undefined ? undefined : String(cond.attribute);
  if (attribute !== undefined && !Object.hasOwn(s.attributes, attribute)) {
    element.setResult({ result: false, message: `attribute '${attribute}' of entity ${s.entity_id} does not exist` });
    return false;
  }
  const value = attribute === undefined ? s.state : s.attributes[attribute];
  let wanted: unknown;
  let ok = false;
  for (const w of list(cond.state)) {
    wanted = typeof w === "string" && /^input_(select|text|number|boolean|datetime)\./.test(w) ? (ctx.lookup(w)?.state ?? w) : w;
    ok = value === wanted;
    if (ok) break;
  }
  const forMs = periodMs(cond.for);
  if (forMs === undefined || !ok) {
    element.setResult({ result: ok, state: value, wanted_state: wanted });
    return ok;
  }
  const since = ctx.now() - forMs;
  const durationOk = since > Date.parse(s.last_changed);
  element.setResult({ result: durationOk, state: value, duration: isoTime(since) });
  return durationOk;
}

/** `async_numeric_state`: the trace records the value and the bound it missed. */
function numericCheck(cond: Obj, s: HassState, ctx: RunContext, element: TraceElement): boolean {
  const attribute = cond.attribute === undefined ? undefined : String(cond.attribute);
  const raw = attribute === undefined ? s.state : s.attributes[attribute];
  if (raw === undefined || raw === null || raw === "unavailable" || raw === "unknown") {
    element.setResult({ result: false, message: `value '${raw === undefined || raw === null ? "None" : String(raw)}' is non-numeric and treated as False` });
    return false;
  }
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ConditionError("numeric_state", `entity ${s.entity_id} state '${String(raw)}' cannot be processed as a number`);
  const bound = (v: unknown, side: string): number | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v === "number") return v;
    const other = ctx.lookup(String(v));
    if (!other) throw new ConditionError("numeric_state", `unknown '${side}' entity ${String(v)}`);
    return Number(other.state);
  };
  const below = bound(cond.below, "below");
  const above = bound(cond.above, "above");
  if (below !== undefined && value >= below) {
    element.setResult({ result: false, state: value, wanted_state_below: below });
    return false;
  }
  if (above !== undefined && value <= above) {
    element.setResult({ result: false, state: value, wanted_state_above: above });
    return false;
  }
  element.setResult({ result: true, state: value });
  return true;
}

/** `async_template`: true when the rendering reads "true"; the trace lists the entities it read. */
function templateCheck(template: string, ctx: RunContext, element: TraceElement): boolean {
  let rendered;
  try {
    rendered = renderTemplate(template, (id) => ctx.lookup(id), ctx.variables, { nowMs: ctx.now(), timeZone: ctx.config.time_zone });
  } catch (err) {
    if (err instanceof TemplateError) throw new ConditionError("template", err.message);
    throw err;
  }
  const r = rendered.result;
  const ok = r === true || (typeof r === "string" && r.trim().toLowerCase() === "true");
  element.setResult({ result: ok, entities: rendered.entities });
  return ok;
}

/** The sun condition (`sun/condition.py`): before/after today's sunrise or sunset, with offsets; "before sunrise, after sunset" is the night. */
function sunCheck(o: Obj, ctx: RunContext, element: TraceElement): boolean {
  const now = ctx.now();
  const { latitude, longitude, time_zone: tz } = ctx.config;
  const p = localParts(now, tz);
  const midnight = fromLocal(tz, p.year, p.month, p.day);
  const sunrise = nextSunEvent(midnight, "sunrise", latitude, longitude);
  const sunset = nextSunEvent(midnight, "sunset", latitude, longitude);
  const offset = (k: string) => periodMs(o[k]) ?? 0;
  const wanted = (event: unknown, key: string): number | undefined => {
    const t = event === "sunrise" ? sunrise : event === "sunset" ? sunset : undefined;
    return t === undefined ? undefined : t + offset(key);
  };
  const before = wanted(o.before, "before_offset");
  const after = wanted(o.after, "after_offset");
  if (before !== undefined) element.updateResult({ wanted_time_before: isoTime(before) });
  if (after !== undefined) element.updateResult({ wanted_time_after: isoTime(after) });
  if (o.before === "sunrise" && o.after === "sunset" && before !== undefined && after !== undefined) return now < before || now > after;
  if (before !== undefined && now > before) return false;
  if (after !== undefined && now < after) return false;
  return true;
}

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/** The time condition: local time between `after` and `before` (across midnight when after > before), on the given weekdays. */
function timeCheck(cond: Obj, ctx: RunContext, element: TraceElement): boolean {
  const p = localParts(ctx.now(), ctx.config.time_zone);
  const toSeconds = (v: unknown, fallback: number): number => {
    if (v === undefined) return fallback;
    const text = String(v);
    const entity = /^[a-z_]+\.[a-z0-9_]+$/.test(text) ? ctx.lookup(text) : undefined;
    if (entity) return Number(entity.attributes.hour ?? 0) * 3600 + Number(entity.attributes.minute ?? 0) * 60 + Number(entity.attributes.second ?? 0);
    const [h, m, s] = text.split(":").map(Number);
    return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
  };
  const show = (sec: number) => [Math.floor(sec / 3600), Math.floor(sec / 60) % 60, Math.floor(sec % 60)].map((n) => String(n).padStart(2, "0")).join(":");
  const after = toSeconds(cond.after, 0);
  const before = toSeconds(cond.before, 86_399.999999);
  const now = p.hour * 3600 + p.minute * 60 + p.second;
  element.updateResult({ after: show(after), now_time: show(now), before: cond.before === undefined ? "23:59:59.999999" : show(before) });
  const inside = after < before ? after <= now && now < before : !(before <= now && now < after);
  if (!inside) return false;
  if (cond.weekday !== undefined) {
    const today = WEEKDAYS[p.weekday]!;
    element.updateResult({ weekday: cond.weekday, now_weekday: today });
    return list(cond.weekday).includes(today);
  }
  return true;
}
