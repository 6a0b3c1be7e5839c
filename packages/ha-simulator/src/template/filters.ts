import { getAttr, iterate, toDateTime } from "./access.js";
import type { Env } from "./env.js";
import { strftime } from "./methods.js";
import { DateTime, equals, fail, isFloat, isPlainObject, numberOf, PyFloat, repr, str, TemplateState, truthy, typeName, Undef } from "./values.js";

/** A float or int from a value the way HA's `float`/`int` filters read it; undefined when they cannot. */
function parseNumber(v: unknown): number | undefined {
  const n = numberOf(v);
  if (n !== undefined) return n;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function noDefault(name: string, v: unknown): never {
  return fail("ValueError", `Template error: ${name} got invalid input '${str(v)}' when rendering template and no default was specified`);
}

function sortKey(v: unknown): number | string {
  return numberOf(v) ?? str(v);
}

/** Jinja's filters plus HA's (`helpers/template/__init__.py` registers float, int, bool, as_timestamp, timestamp_custom, …). */
export function applyFilter(name: string, v: unknown, args: unknown[], kwargs: Record<string, unknown>, env: Env): unknown {
  if (v instanceof Undef && !["default", "d", "is_defined"].includes(name) && env.strict) fail("UndefinedError", v.hint);
  switch (name) {
    case "float": {
      const n = parseNumber(v);
      if (n === undefined) return args.length > 0 || "default" in kwargs ? (args[0] ?? kwargs.default) : noDefault("float", v);
      return new PyFloat(n);
    }
    case "int": {
      const n = typeof v === "string" ? parseNumber(v.split(".")[0] === v ? v : v) : parseNumber(v);
      if (n === undefined) return args.length > 0 || "default" in kwargs ? (args[0] ?? kwargs.default) : noDefault("int", v);
      return Math.trunc(n);
    }
    case "bool": {
      if (typeof v === "boolean") return v;
      const t = str(v).toLowerCase();
      if (["true", "yes", "on", "enable", "1"].includes(t)) return true;
      if (["false", "no", "off", "disable", "0", "none"].includes(t)) return false;
      return args.length > 0 ? args[0] : noDefault("bool", v);
    }
    case "round": {
      const n = parseNumber(v);
      if (n === undefined) return args.length > 2 ? args[2] : noDefault("round", v);
      const digits = numberOf(args[0]) ?? 0;
      const method = str(args[1] ?? "common");
      const f = 10 ** digits;
      const scaled = n * f;
      const r = method === "floor" ? Math.floor(scaled) : method === "ceil" ? Math.ceil(scaled) : method === "half" ? Math.round(scaled * 2) / 2 : Math.round(scaled);
      return new PyFloat(r / f);
    }
    case "abs": {
      const n = numberOf(v);
      return n === undefined ? fail("TypeError", `bad operand type for abs(): '${typeName(v)}'`) : isFloat(v) ? new PyFloat(Math.abs(n)) : Math.abs(n);
    }
    case "multiply": {
      const n = parseNumber(v);
      const by = numberOf(args[0]) ?? 1;
      return n === undefined ? (args.length > 1 ? args[1] : noDefault("multiply", v)) : new PyFloat(n * by);
    }
    case "default": case "d": {
      const useFalsy = args[1] === true || kwargs.boolean === true;
      return v instanceof Undef || (useFalsy && !truthy(v)) ? (args[0] ?? "") : v;
    }
    case "lower": return str(v).toLowerCase();
    case "upper": return str(v).toUpperCase();
    case "title": return str(v).toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
    case "capitalize": return str(v).charAt(0).toUpperCase() + str(v).slice(1).toLowerCase();
    case "string": return str(v);
    case "trim": return str(v).trim();
    case "replace": return str(v).split(str(args[0])).join(str(args[1]));
    case "length": case "count": return typeof v === "string" ? v.length : isPlainObject(v) ? Object.keys(v).length : iterate(v, env).length;
    case "list": return iterate(v, env);
    case "first": return iterate(v, env)[0] ?? new Undef("No first item, sequence was empty.");
    case "last": return iterate(v, env).at(-1) ?? new Undef("No last item, sequence was empty.");
    case "join": {
      const items = iterate(v, env).map((x) => (kwargs.attribute !== undefined ? getAttr(x, str(kwargs.attribute), env) : x));
      return items.map(str).join(str(args[0] ?? kwargs.d ?? ""));
    }
    case "sort": {
      const attr = kwargs.attribute === undefined ? undefined : str(kwargs.attribute);
      const key = (x: unknown) => sortKey(attr === undefined ? x : getAttr(x, attr, env));
      const sorted = [...iterate(v, env)].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      return args[0] === true || kwargs.reverse === true ? sorted.reverse() : sorted;
    }
    case "unique": return iterate(v, env).filter((x, i, all) => all.findIndex((y) => equals(x, y)) === i);
    case "reverse": return typeof v === "string" ? [...v].reverse().join("") : [...iterate(v, env)].reverse();
    case "sum": {
      const total = iterate(v, env).reduce((acc: number, x) => acc + (numberOf(kwargs.attribute !== undefined ? getAttr(x, str(kwargs.attribute), env) : x) ?? fail("TypeError", `unsupported operand type(s) for +: 'int' and '${typeName(x)}'`)), numberOf(args[0]) ?? 0);
      return iterate(v, env).some((x) => isFloat(x)) ? new PyFloat(total) : total;
    }
    case "min": case "max": {
      const items = iterate(v, env);
      if (items.length === 0) return new Undef(`No aggregated item, sequence was empty.`);
      return items.reduce((a, b) => ((name === "min" ? sortKey(b) < sortKey(a) : sortKey(b) > sortKey(a)) ? b : a));
    }
    case "map": {
      const items = iterate(v, env);
      if (kwargs.attribute !== undefined) return items.map((x) => getAttr(x, str(kwargs.attribute), env));
      return items.map((x) => applyFilter(str(args[0]), x, args.slice(1), {}, env));
    }
    case "select": case "reject": {
      const keep = name === "select";
      return iterate(v, env).filter((x) => (args.length === 0 ? truthy(x) : applyTest(str(args[0]), x, args.slice(1), env)) === keep);
    }
    case "selectattr": case "rejectattr": {
      const keep = name === "selectattr";
      return iterate(v, env).filter((x) => {
        const a = getAttr(x, str(args[0]), env);
        return (args.length < 2 ? truthy(a) : applyTest(str(args[1]), a, args.slice(2), env)) === keep;
      });
    }
    case "batch": {
      const size = numberOf(args[0]) ?? 1;
      const items = iterate(v, env);
      const out: unknown[][] = [];
      for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
      return out;
    }
    case "tojson": case "to_json": return JSON.stringify(v instanceof PyFloat ? v.v : v);
    case "from_json": {
      try {
        return JSON.parse(str(v));
      } catch {
        return args.length > 0 ? args[0] : fail("ValueError", `Template error: from_json got invalid input '${str(v)}' when rendering template and no default was specified`);
      }
    }
    case "as_timestamp": {
      const d = toDateTime(v, env);
      return d ? new PyFloat(d.ms / 1000) : args.length > 0 ? args[0] : noDefault("as_timestamp", v);
    }
    case "as_datetime": return toDateTime(v, env) ?? (args.length > 0 ? args[0] : null);
    case "as_local": {
      const d = toDateTime(v, env);
      return d ? new DateTime(d.ms, env.timeZone) : noDefault("as_local", v);
    }
    case "timestamp_custom": case "timestamp_local": case "timestamp_utc": {
      const n = parseNumber(v);
      if (n === undefined) return args.length > (name === "timestamp_custom" ? 2 : 0) ? args.at(-1) : noDefault(name, v);
      const local = name === "timestamp_local" || (name === "timestamp_custom" && args[1] !== false);
      const d = new DateTime(n * 1000, local ? env.timeZone : "UTC");
      return name === "timestamp_custom" ? strftime(d, str(args[0] ?? "%Y-%m-%d %H:%M:%S")) : d.iso();
    }
    case "regex_match": return new RegExp(`^(?:${str(args[0])})`, args[1] === true ? "i" : "").test(str(v));
    case "regex_search": return new RegExp(str(args[0]), args[1] === true ? "i" : "").test(str(v));
    case "regex_replace": return str(v).replace(new RegExp(str(args[0] ?? ""), "g"), str(args[1] ?? ""));
    case "is_defined": return v instanceof Undef ? fail("UndefinedError", v.hint) : v;
    case "slugify": return str(v).toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
    case "pprint": return repr(v);
  }
  return fail("TemplateAssertionError", `No filter named '${name}'.`);
}

/** Jinja's tests (`is defined`, `is eq`, `is match`…). */
export function applyTest(name: string, v: unknown, args: unknown[], env: Env): boolean {
  switch (name) {
    case "defined": return !(v instanceof Undef);
    case "undefined": return v instanceof Undef;
    case "none": return v === null;
    case "number": return numberOf(v) !== undefined && typeof v !== "boolean";
    case "string": return typeof v === "string";
    case "boolean": return typeof v === "boolean";
    case "true": return v === true;
    case "false": return v === false;
    case "list": case "sequence": case "iterable": return Array.isArray(v) || typeof v === "string";
    case "mapping": return isPlainObject(v);
    case "eq": case "equalto": case "==": return equals(v, args[0]);
    case "ne": case "!=": return !equals(v, args[0]);
    case "lt": case "lessthan": return (numberOf(v) ?? NaN) < (numberOf(args[0]) ?? NaN);
    case "gt": case "greaterthan": return (numberOf(v) ?? NaN) > (numberOf(args[0]) ?? NaN);
    case "le": return (numberOf(v) ?? NaN) <= (numberOf(args[0]) ?? NaN);
    case "ge": return (numberOf(v) ?? NaN) >= (numberOf(args[0]) ?? NaN);
    case "in": return Array.isArray(args[0]) ? args[0].some((x) => equals(x, v)) : typeof args[0] === "string" ? args[0].includes(str(v)) : false;
    case "even": return (numberOf(v) ?? 1) % 2 === 0;
    case "odd": return Math.abs(numberOf(v) ?? 0) % 2 === 1;
    case "divisibleby": return (numberOf(v) ?? 1) % (numberOf(args[0]) ?? 1) === 0;
    case "match": return new RegExp(`^(?:${str(args[0])})`).test(str(v));
    case "search": return new RegExp(str(args[0])).test(str(v));
    case "is_number": return parseNumber(v) !== undefined;
    case "has_value": return v instanceof TemplateState ? !["unknown", "unavailable"].includes(v.s.state) : false;
  }
  void env;
  return fail("TemplateAssertionError", `No test named '${name}'.`);
}
