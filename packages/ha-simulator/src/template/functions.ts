import { fromLocal, localParts } from "../common/index.js";
import { iterate, toDateTime } from "./access.js";
import type { Env } from "./env.js";
import { applyFilter } from "./filters.js";
import { DateTime, fail, Namespace, numberOf, PyFloat, str, TemplateState, TimeDelta, truthy, Undef } from "./values.js";

/**
 * The functions HA gives templates (`helpers/template/__init__.py`): states and
 * attributes, time, and the filters that also exist as functions.
 */
export const GLOBALS = new Set([
  "states", "is_state", "state_attr", "is_state_attr", "has_value", "now", "utcnow", "today_at", "as_timestamp", "as_datetime", "as_local",
  "relative_time", "timedelta", "float", "int", "bool", "round", "min", "max", "range", "namespace", "iif", "expand", "is_number", "dict",
  "list", "log", "average",
]);

function entityState(id: unknown, env: Env) {
  const entityId = String(id).toLowerCase();
  env.info.entities.add(entityId);
  return env.lookup(entityId);
}

export function callGlobal(name: string, args: unknown[], kwargs: Record<string, unknown>, env: Env): unknown {
  switch (name) {
    case "states": {
      const s = entityState(args[0], env);
      return s ? s.state : "unknown";
    }
    case "is_state": {
      const s = entityState(args[0], env);
      if (!s) return false;
      return Array.isArray(args[1]) ? args[1].includes(s.state) : s.state === args[1];
    }
    case "state_attr": {
      const s = entityState(args[0], env);
      const key = str(args[1]);
      return s && Object.hasOwn(s.attributes, key) ? s.attributes[key] : null;
    }
    case "is_state_attr": {
      const s = entityState(args[0], env);
      const key = str(args[1]);
      return s !== undefined && Object.hasOwn(s.attributes, key) && s.attributes[key] === args[2];
    }
    case "has_value": {
      const s = entityState(args[0], env);
      return s !== undefined && s.state !== "unknown" && s.state !== "unavailable";
    }
    case "now":
      env.info.time = true;
      return new DateTime(env.nowMs, env.timeZone);
    case "utcnow":
      env.info.time = true;
      return new DateTime(env.nowMs, "UTC");
    case "today_at": {
      env.info.time = true;
      const [h, m, s] = str(args[0] ?? "00:00").split(":").map(Number);
      const p = localParts(env.nowMs, env.timeZone);
      return new DateTime(fromLocal(env.timeZone, p.year, p.month, p.day, h ?? 0, m ?? 0, s ?? 0), env.timeZone);
    }
    case "as_timestamp": {
      const d = toDateTime(args[0], env);
      return d ? new PyFloat(d.ms / 1000) : args.length > 1 ? args[1] : fail("ValueError", `Template error: as_timestamp got invalid input '${str(args[0])}' when rendering template and no default was specified`);
    }
    case "as_datetime": {
      const d = toDateTime(args[0], env);
      return d ?? (args.length > 1 ? args[1] : null);
    }
    case "as_local": {
      const d = toDateTime(args[0], env);
      return d ? new DateTime(d.ms, env.timeZone) : fail("TypeError", "as_local needs a datetime");
    }
    case "relative_time": {
      env.info.time = true;
      const d = toDateTime(args[0], env);
      if (!d) return args[0];
      return relative(env.nowMs - d.ms);
    }
    case "timedelta": {
      const n = (k: string) => numberOf(kwargs[k]) ?? 0;
      const pos = args.map((a) => numberOf(a) ?? 0);
      return new TimeDelta((((pos[0] ?? n("days")) * 24 + n("hours")) * 3600 + (pos[1] ?? n("seconds")) + n("minutes") * 60 + n("weeks") * 604800) * 1000 + n("milliseconds"));
    }
    case "float": case "int": case "bool": case "round":
      return applyFilter(name, args[0], args.slice(1), kwargs, env);
    case "min": case "max": {
      const items = args.length === 1 ? iterate(args[0], env) : args;
      return applyFilter(name, items, [], kwargs, env);
    }
    case "average": {
      const items = (args.length === 1 ? iterate(args[0], env) : args).map((x) => numberOf(x));
      if (items.length === 0 || items.some((x) => x === undefined)) return fail("TypeError", "average expects numbers");
      return new PyFloat((items as number[]).reduce((a, b) => a + b, 0) / items.length);
    }
    case "range": {
      const [a, b, step] = args.map((x) => numberOf(x) ?? 0);
      const [start, stop, by] = b === undefined ? [0, a ?? 0, 1] : [a!, b, step ?? 1];
      if (by === 0) return fail("ValueError", "range() arg 3 must not be zero");
      if (Math.abs((stop - start) / by) > 100_000) return fail("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
      const out: number[] = [];
      for (let i = start; by > 0 ? i < stop : i > stop; i += by) out.push(i);
      return out;
    }
    case "namespace": {
      const ns = new Namespace();
      for (const [k, v] of Object.entries(kwargs)) ns.fields.set(k, v);
      return ns;
    }
    case "dict": return { ...kwargs };
    case "list": return iterate(args[0] ?? [], env);
    case "iif": return truthy(args[0]) ? (args[1] ?? true) : (args[2] ?? false);
    case "is_number": return numberOf(args[0]) !== undefined || (typeof args[0] === "string" && args[0].trim() !== "" && Number.isFinite(Number(args[0])));
    case "log": {
      const n = numberOf(args[0]);
      return n === undefined ? fail("ValueError", "log needs a number") : new PyFloat(Math.log(n) / Math.log(numberOf(args[1]) ?? Math.E));
    }
    case "expand": {
      const out: TemplateState[] = [];
      for (const a of args.flatMap((x) => (Array.isArray(x) ? x : [x]))) {
        const id = a instanceof TemplateState ? a.s.entity_id : str(a);
        const s = entityState(id, env);
        if (s) out.push(new TemplateState(s));
      }
      return out.sort((x, y) => x.s.entity_id.localeCompare(y.s.entity_id));
    }
  }
  return new Undef(`'${name}' is undefined`);
}

/** HA's `relative_time`: the largest unit, "2 hours", "1 minute", "5 seconds". */
function relative(ms: number): string {
  const s = Math.abs(ms) / 1000;
  const units: [number, string][] = [[31_536_000, "year"], [2_592_000, "month"], [86_400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
  for (const [size, unit] of units) {
    if (s >= size) {
      const n = Math.floor(s / size);
      return `${n} ${unit}${n === 1 ? "" : "s"}`;
    }
  }
  return "0 seconds";
}
