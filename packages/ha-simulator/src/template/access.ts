import type { Env } from "./env.js";
import { ALL_STATES, DateTime, DomainStates, fail, isPlainObject, Namespace, numberOf, str, TemplateState, TimeDelta, typeName, Undef } from "./values.js";

/** Reading values the way Jinja and HA's template helper do: iterating, attribute access, and datetimes from what HA accepts. */

/** What `for` and filters iterate: lists, dict keys, string characters, and states. */
export function iterate(v: unknown, env: Env): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (v === ALL_STATES) {
    env.info.all = true;
    return env.allStates().map((s) => new TemplateState(s)).sort((a, b) => a.s.entity_id.localeCompare(b.s.entity_id));
  }
  if (v instanceof DomainStates) {
    env.info.domains.add(v.domain);
    return env.allStates().filter((s) => s.entity_id.startsWith(`${v.domain}.`)).map((s) => new TemplateState(s)).sort((a, b) => a.s.entity_id.localeCompare(b.s.entity_id));
  }
  if (isPlainObject(v)) return Object.keys(v);
  if (v instanceof Undef) return env.strict ? fail("UndefinedError", v.hint) : [];
  return fail("TypeError", `'${typeName(v)}' object is not iterable`);
}

/** Attribute access, as Jinja's `getattr`: missing ones are undefined, not errors. */
export function getAttr(obj: unknown, name: string, env: Env): unknown {
  if (obj === ALL_STATES) return new DomainStates(name);
  if (obj instanceof DomainStates) {
    const id = `${obj.domain}.${name}`;
    env.info.entities.add(id);
    const s = env.lookup(id);
    return s ? new TemplateState(s.entity_id === id ? s : { ...s, entity_id: id }) : null;
  }
  if (obj instanceof TemplateState) {
    env.info.entities.add(obj.s.entity_id);
    return obj.get(name);
  }
  if (obj instanceof Namespace) return obj.fields.has(name) ? obj.fields.get(name) : new Undef(`'Namespace object' has no attribute '${name}'`);
  if (obj instanceof DateTime) {
    const p = obj.parts();
    const fields = new Map<string, number>(Object.entries({ year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second, microsecond: (obj.ms % 1000) * 1000 }));
    if (fields.has(name)) return fields.get(name);
    return { method: name, self: obj };
  }
  if (obj instanceof TimeDelta) {
    if (name === "days") return Math.floor(obj.ms / 86_400_000);
    if (name === "seconds") return Math.floor((obj.ms % 86_400_000) / 1000);
    return { method: name, self: obj };
  }
  if (isPlainObject(obj)) {
    if (Object.hasOwn(obj, name)) return obj[name];
    if (["get", "items", "keys", "values"].includes(name)) return { method: name, self: obj };
    return new Undef(`'dict object' has no attribute '${name}'`);
  }
  if (typeof obj === "string" || Array.isArray(obj)) return { method: name, self: obj };
  if (obj instanceof Undef) return env.strict ? fail("UndefinedError", obj.hint) : new Undef(obj.hint);
  return new Undef(`'${str(obj)}' has no attribute '${name}'`);
}

/** Python's `datetime` from a value HA accepts: a datetime, an ISO string or a timestamp. */
export function toDateTime(v: unknown, env: Env): DateTime | undefined {
  if (v instanceof DateTime) return v;
  const n = numberOf(v);
  if (n !== undefined && typeof v !== "boolean") return new DateTime(n * 1000, "UTC");
  if (typeof v === "string") {
    const ms = Date.parse(v.includes("T") || v.includes(" ") ? v.replace(" ", "T") : v);
    if (Number.isFinite(ms)) return new DateTime(ms, /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? "UTC" : env.timeZone);
  }
  return undefined;
}
