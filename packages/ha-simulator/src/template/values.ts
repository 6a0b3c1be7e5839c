import type { HassState } from "../common/index.js";
import { localIso, localParts } from "../common/index.js";
import { pythonString } from "../python-repr.js";

/**
 * The values a template works with, modelled on what Jinja and HA's template
 * helper (`helpers/template/__init__.py`) hand a template: Python ints and
 * floats (a float prints as `21.0`), undefined names, state objects, the
 * `states` namespace, datetimes and timedeltas.
 */

/** An error with HA's wording: "<ExceptionType>: <message>". */
export class TemplateError extends Error {}

export const fail = (type: string, message: string): never => {
  throw new TemplateError(`${type}: ${message}`);
};

/** A Python float; a bare JS number is a Python int. */
export class PyFloat {
  constructor(readonly v: number) {}
}

/** Jinja's Undefined: renders as nothing (with a warning), fails when used. `hint` is the reason Jinja gives. */
export class Undef {
  constructor(readonly hint: string) {}
}

export class Namespace {
  readonly fields = new Map<string, unknown>();
}

export class TimeDelta {
  constructor(readonly ms: number) {}
}

/** An aware datetime in a zone (local time for `now()`, UTC for `utcnow()`). */
export class DateTime {
  constructor(
    readonly ms: number,
    readonly tz: string,
  ) {}

  parts() {
    return localParts(this.ms, this.tz);
  }

  /** Python's `isoformat()`: microseconds only when there are any. */
  iso(sep = "T"): string {
    const text = this.tz === "UTC" ? new Date(this.ms).toISOString().replace("Z", "000+00:00") : localIso(this.ms, this.tz);
    const [date, rest] = [text.slice(0, 10), text.slice(11)];
    return `${date}${sep}${rest.replace(/\.000000(?=[+-])/, "")}`;
  }
}

/** A state as a template sees it (`TemplateState`). */
export class TemplateState {
  constructor(readonly s: HassState) {}

  get(name: string): unknown {
    const s = this.s;
    const dot = s.entity_id.indexOf(".");
    switch (name) {
      case "state": return s.state;
      case "entity_id": return s.entity_id;
      case "attributes": return s.attributes;
      case "domain": return s.entity_id.slice(0, dot);
      case "object_id": return s.entity_id.slice(dot + 1);
      case "name": return typeof s.attributes.friendly_name === "string" ? s.attributes.friendly_name : s.entity_id.slice(dot + 1).replace(/_/g, " ");
      case "last_changed": return new DateTime(Date.parse(s.last_changed), "UTC");
      case "last_updated": return new DateTime(Date.parse(s.last_updated), "UTC");
      case "last_reported": return new DateTime(Date.parse(s.last_reported ?? s.last_updated), "UTC");
      case "context": return s.context;
      default: return new Undef(`'TemplateState object' has no attribute '${name}'`);
    }
  }
}

/** `states.<domain>`: its states in entity id order, or one of them by object id. */
export class DomainStates {
  constructor(readonly domain: string) {}
}

/** `states`: callable, iterable, and the way to `states.<domain>.<object_id>`. */
export const ALL_STATES = Symbol("states");

export function isFloat(v: unknown): v is PyFloat {
  return v instanceof PyFloat;
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "boolean") return v ? 1 : 0;
  return undefined;
}

function floatText(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

/** `timedelta.__str__`: "1:02:03", "2 days, 0:00:00". */
export function timedeltaText(ms: number): string {
  const neg = ms < 0;
  let s = Math.abs(ms) / 1000;
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const hms = `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  const frac = s % 1 ? `.${String(Math.round((s % 1) * 1e6)).padStart(6, "0")}` : "";
  const dayText = days > 0 ? `${days} day${days === 1 ? "" : "s"}, ` : "";
  return `${neg ? "-" : ""}${dayText}${hms}${frac}`;
}

/** Python's `repr` of a template value (inside lists and dicts). */
export function repr(v: unknown): string {
  if (typeof v === "string") return pythonString(v);
  if (Array.isArray(v)) return `[${v.map(repr).join(", ")}]`;
  if (v instanceof DateTime) return `datetime.datetime(${v.iso(" ")})`;
  if (isPlainObject(v)) return `{${Object.entries(v).map(([k, x]) => `${pythonString(k)}: ${repr(x)}`).join(", ")}}`;
  return str(v);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Python's `str` of a template value: what `{{ … }}` writes. */
export function str(v: unknown): string {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null || v === undefined) return "None";
  if (typeof v === "string") return v;
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : floatText(v);
  if (v instanceof PyFloat) return floatText(v.v);
  if (v instanceof Undef) return "";
  if (v instanceof DateTime) return v.iso(" ");
  if (v instanceof TimeDelta) return timedeltaText(v.ms);
  if (v instanceof TemplateState) {
    const attrs = Object.entries(v.s.attributes).map(([k, x]) => `${k}=${str(x)}`).join(", ");
    return `<template TemplateState(<state ${v.s.entity_id}=${v.s.state}; ${attrs} @ ${new DateTime(Date.parse(v.s.last_changed), "UTC").iso()}>)>`;
  }
  if (v instanceof DomainStates) return `<template DomainStates('${v.domain}')>`;
  if (v === ALL_STATES) return "<template AllStates>";
  if (v instanceof Namespace) return `<Namespace ${[...v.fields].map(([k, x]) => `${k}=${repr(x)}`).join(", ")}>`;
  return repr(v);
}

export function truthy(v: unknown): boolean {
  if (v instanceof Undef) return false;
  if (v instanceof PyFloat) return v.v !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isPlainObject(v)) return Object.keys(v).length > 0;
  return !(v === false || v === null || v === undefined || v === 0 || v === "");
}

/** Python's `==`: numbers by value (1 == 1.0, True == 1), lists and dicts by content. */
export function equals(a: unknown, b: unknown): boolean {
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equals(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equals(a[k], b[k]));
  }
  if (a instanceof DateTime && b instanceof DateTime) return a.ms === b.ms;
  return a === b || (a === null && b === undefined) || (a === undefined && b === null);
}

export function typeName(v: unknown): string {
  if (typeof v === "string") return "str";
  if (typeof v === "number") return "int";
  if (v instanceof PyFloat) return "float";
  if (typeof v === "boolean") return "bool";
  if (v === null || v === undefined) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (v instanceof DateTime) return "datetime.datetime";
  if (v instanceof TimeDelta) return "datetime.timedelta";
  if (v instanceof Undef) return "Undefined";
  return "dict";
}
