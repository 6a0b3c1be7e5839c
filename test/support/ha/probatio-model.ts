import type { HaKey, HaValidator } from "./validator-tree.js";

/**
 * `probatio.from_openapi` (frenck/probatio, src/probatio/codecs/jsonschema.py:
 * `_decode`, `_build_node`, `_collect_facets`, `_from_typed`, `_from_object`,
 * `_from_array`, `_from_string`, `_from_number`) as HA 2026.9+ runs it on a
 * tool's inputSchema in the `mcp` integration. It throws `ProbatioRefusal`
 * where probatio raises `SchemaError`, with probatio's message.
 */
export class ProbatioRefusal extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

/** `_UNSUPPORTED_KEYWORDS`: restrictive keywords probatio refuses rather than ignore. */
const UNSUPPORTED = ["if", "propertyNames", "patternProperties", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef"];
const MAX_DEPTH = 100;
const NUMERIC_BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties", "minProperties", "maxProperties", "dependentRequired"];
const ARRAY_KEYWORDS = ["items", "prefixItems", "minItems", "maxItems"];

export function probatioFromOpenapi(schema: Json): HaValidator {
  return node(schema, { root: schema, depth: 0 });
}

interface Ctx {
  root: Json;
  depth: number;
}

function node(value: unknown, ctx: Ctx): HaValidator {
  ctx.depth += 1;
  try {
    if (ctx.depth > MAX_DEPTH) throw new ProbatioRefusal("too-deep", `JSON Schema nests deeper than ${MAX_DEPTH} levels; refusing to decode it`);
    return build(value, ctx);
  } finally {
    ctx.depth -= 1;
  }
}

function build(value: unknown, ctx: Ctx): HaValidator {
  if (value === true) return { kind: "anything" };
  if (value === false) return { kind: "in", values: [] };
  if (!isObj(value)) throw new ProbatioRefusal("malformed", `JSON Schema node must be an object or boolean, got ${typeName(value)}`);
  const refused = UNSUPPORTED.filter((k) => k in value).sort();
  if (refused.length) throw new ProbatioRefusal(`unsupported-keyword:${refused[0]}`, `JSON Schema keyword(s) not supported; refusing to silently ignore a constraint: ${refused.join(", ")}`);
  const facets = collectFacets(value, ctx);
  const result: HaValidator = facets.length === 0 ? { kind: "anything" } : facets.length === 1 ? facets[0]! : { kind: "all", of: facets };
  // OpenAPI mode: `nullable: true` wraps whatever the node became in Maybe.
  return value.nullable === true ? { kind: "maybe", of: result } : result;
}

function collectFacets(n: Json, ctx: Ctx): HaValidator[] {
  const facets: HaValidator[] = [];
  if ("$ref" in n) {
    if (typeof n.$ref !== "string") throw new ProbatioRefusal("malformed", `JSON Schema '$ref' must be a string, got ${typeName(n.$ref)}`);
    if (n.$ref !== "#" && !n.$ref.startsWith("#/")) throw new ProbatioRefusal("non-local-ref", `only local JSON pointers are supported, got '${n.$ref}'`);
    facets.push({ kind: "ref", ref: n.$ref });
  }
  if ("const" in n) facets.push({ kind: "in", values: [n.const] });
  else if ("enum" in n) {
    if (!Array.isArray(n.enum)) throw new ProbatioRefusal("malformed", `JSON Schema 'enum' must be an array, got ${typeName(n.enum)}`);
    facets.push({ kind: "in", values: n.enum });
  }
  // `_Not` has no OpenAPI form of its own; what it refuses does not matter to these tests.
  if ("not" in n) facets.push({ kind: "anything" });
  for (const [key, kind] of [
    ["allOf", "all"],
    ["anyOf", "any"],
    ["oneOf", "one-of"],
  ] as const) {
    if (!(key in n)) continue;
    const subs = n[key];
    if (!Array.isArray(subs)) throw new ProbatioRefusal("malformed", `JSON Schema '${key}' must be an array, got ${typeName(subs)}`);
    facets.push({ kind, of: subs.map((s) => node(s, ctx)) });
  }
  const typed = "type" in n ? fromTyped(n, ctx) : constraints(n, ctx);
  if (typed) facets.push(typed);
  return facets;
}

function fromTyped(n: Json, ctx: Ctx): HaValidator {
  const type = n.type;
  if (Array.isArray(type)) {
    for (const t of type) if (typeof t !== "string") throw new ProbatioRefusal("malformed", `JSON Schema 'type' array entries must be strings, got ${typeName(t)}`);
    return { kind: "any", of: (type as string[]).map((t) => (t === "null" ? { kind: "null" } : fromTyped({ ...n, type: t }, ctx))) };
  }
  if (typeof type !== "string") throw new ProbatioRefusal("malformed", `JSON Schema 'type' must be a string or array, got ${typeName(type)}`);
  switch (type) {
    case "boolean":
      return { kind: "type", type: "bool" };
    case "null":
      return { kind: "null" };
    case "object":
      return fromObject(n, ctx);
    case "array":
      return fromArray(n, ctx);
    case "string":
      return fromString(n);
    case "integer":
    case "number": {
      // `_from_number`: probatio's own JSON number check, plus a Range for any bound.
      const base: HaValidator = { kind: "json-number", integer: type === "integer" };
      const bounds: HaValidator[] = NUMERIC_BOUNDS.some((k) => k in n) ? [fromRange(n)] : [];
      return bounds.length ? { kind: "all", of: [base, ...bounds] } : base;
    }
    default:
      throw new ProbatioRefusal("unknown-type", `JSON Schema 'type' is not a recognized type name: '${type}'`);
  }
}

/** `_combine_constraints`: a typeless node still means its constraint keywords. */
function constraints(n: Json, ctx: Ctx): HaValidator | undefined {
  const out: HaValidator[] = [];
  if (NUMERIC_BOUNDS.some((k) => k in n)) out.push(fromRange(n));
  if ("minLength" in n || "maxLength" in n) out.push({ kind: "length", ...count(n, "minLength", "min"), ...count(n, "maxLength", "max") });
  if ("pattern" in n) out.push({ kind: "match", pattern: safePattern(n.pattern) });
  if (OBJECT_KEYWORDS.some((k) => k in n)) out.push(fromObject(n, ctx));
  if (ARRAY_KEYWORDS.some((k) => k in n)) out.push(fromArray(n, ctx));
  return out.length === 0 ? undefined : out.length === 1 ? out[0] : { kind: "all", of: out };
}

/** `_from_object` + `_object_base`: declared properties close the object unless additionalProperties says otherwise. */
function fromObject(n: Json, ctx: Ctx): HaValidator {
  const properties = n.properties ?? {};
  if (!isObj(properties)) throw new ProbatioRefusal("malformed", `JSON Schema 'properties' must be an object, got ${typeName(properties)}`);
  const required = n.required ?? [];
  if (!Array.isArray(required)) throw new ProbatioRefusal("malformed", `JSON Schema 'required' must be an array, got ${typeName(required)}`);
  if (!required.every((r) => typeof r === "string")) throw new ProbatioRefusal("malformed", "JSON Schema 'required' must contain only property names (strings)");
  if ("dependentRequired" in n) throw new ProbatioRefusal("dependent-required", "dependentRequired is honoured only in its symmetric all-or-none form, which this model does not cover");
  const keys: HaKey[] = Object.entries(properties).map(([name, sub]) => ({
    name,
    required: required.includes(name),
    ...(isObj(sub) && typeof sub.description === "string" ? { description: sub.description } : {}),
    ...(isObj(sub) && !required.includes(name) && "default" in sub ? { default: sub.default } : {}),
    value: node(sub, ctx),
  }));
  const additional = n.additionalProperties;
  const typedExtra = isObj(additional) ? node(additional, ctx) : undefined;
  for (const name of (required as string[]).filter((r) => !(r in properties)).sort()) keys.push({ name, required: true, value: typedExtra ?? { kind: "anything" } });
  let base: HaValidator;
  if (typedExtra) base = { kind: "mapping", keys, extra: typedExtra };
  else if (additional === true) base = { kind: "mapping", keys, extra: "allow" };
  else if (!("properties" in n) && additional === undefined) base = keys.length ? { kind: "mapping", keys, extra: "allow" } : { kind: "dict" };
  else base = { kind: "mapping", keys, extra: "prevent" };
  // minProperties/maxProperties: a Length beside the object, which to_openapi cannot place on an open object.
  if ("minProperties" in n || "maxProperties" in n) return { kind: "all", of: [base, { kind: "length", ...count(n, "minProperties", "min"), ...count(n, "maxProperties", "max") }] };
  return base;
}

function fromArray(n: Json, ctx: Ctx): HaValidator {
  if ("prefixItems" in n) throw new ProbatioRefusal("prefix-items", "prefixItems decodes to an ExactSequence, which this model does not cover");
  let items = n.items;
  if (items === true) items = undefined;
  else if (items !== undefined && items !== false && !isObj(items)) throw new ProbatioRefusal("malformed", "JSON Schema array 'items' must be an object; the positional list form is not supported (use 'prefixItems')");
  const bounded = "minItems" in n || "maxItems" in n;
  let sequence: HaValidator;
  if (items === false) sequence = { kind: "sequence", items: [] };
  else if (items === undefined) {
    if (!bounded) return { kind: "list" };
    sequence = { kind: "sequence", items: [{ kind: "anything" }] };
  } else sequence = { kind: "sequence", items: [node(items, ctx)] };
  return bounded ? { kind: "all", of: [sequence, { kind: "length", ...count(n, "minItems", "min"), ...count(n, "maxItems", "max") }] } : sequence;
}

function fromString(n: Json): HaValidator {
  const base: HaValidator = n.format === "date-time" ? { kind: "datetime" } : { kind: "type", type: "str" };
  const out: HaValidator[] = [];
  if ("minLength" in n || "maxLength" in n) out.push({ kind: "length", ...count(n, "minLength", "min"), ...count(n, "maxLength", "max") });
  if ("pattern" in n) out.push({ kind: "match", pattern: safePattern(n.pattern) });
  return out.length ? { kind: "all", of: [base, ...out] } : base;
}

/** `_from_range` / `_resolve_bound`: Draft 4 boolean or 2020-12 numeric exclusive bounds. */
function fromRange(n: Json): HaValidator {
  const [min, minIncluded] = bound(n, "minimum", "exclusiveMinimum");
  const [max, maxIncluded] = bound(n, "maximum", "exclusiveMaximum");
  return { kind: "range", ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), minIncluded, maxIncluded };
}

function bound(n: Json, inclusiveKey: string, exclusiveKey: string): [number | undefined, boolean] {
  const inclusive = numeric(n, inclusiveKey);
  const raw = n[exclusiveKey];
  if (typeof raw === "boolean") {
    if (inclusive === undefined) throw new ProbatioRefusal("malformed", `JSON Schema boolean '${exclusiveKey}' (Draft 4 form) requires '${inclusiveKey}' beside it`);
    return [inclusive, !raw];
  }
  const exclusive = numeric(n, exclusiveKey);
  if (exclusive === undefined) return [inclusive, true];
  if (inclusive === undefined) return [exclusive, false];
  const tighter = inclusiveKey === "minimum" ? exclusive >= inclusive : exclusive <= inclusive;
  return tighter ? [exclusive, false] : [inclusive, true];
}

function numeric(n: Json, key: string): number | undefined {
  const v = n[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number") throw new ProbatioRefusal("malformed", `JSON Schema '${key}' must be a number, got ${typeName(v)}`);
  return v;
}

function count(n: Json, key: string, as: "min" | "max"): Partial<Record<"min" | "max", number>> {
  const v = numeric(n, key);
  return v === undefined ? {} : { [as]: v };
}

/**
 * `_safe_pattern` with `_regex_safety.is_catastrophic`, reduced to its main
 * shape: an unbounded quantifier on a group that itself holds one, as in
 * `(a+)+`. Our own patterns are simple; the real heuristic refuses more.
 */
function safePattern(pattern: unknown): string {
  if (typeof pattern !== "string") throw new ProbatioRefusal("malformed", `JSON Schema 'pattern' must be a string, got ${typeName(pattern)}`);
  if (/\([^()]*[+*][^()]*\)[+*]/.test(pattern)) throw new ProbatioRefusal("catastrophic-pattern", `refusing to compile a potentially catastrophic regular expression from an untrusted schema: '${pattern}'`);
  try {
    new RegExp(pattern);
  } catch {
    throw new ProbatioRefusal("malformed", `JSON Schema 'pattern' is not a valid regular expression: '${pattern}'`);
  }
  return pattern;
}

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** Python's type names, as probatio's messages print them. */
function typeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "string") return "str";
  return "dict";
}
