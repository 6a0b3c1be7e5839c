/**
 * The validator HA builds from a tool's inputSchema, described as data: one
 * node per voluptuous or probatio validator, so a test can see what HA will
 * check and what it will tell the model. Both converters (probatio-model.ts,
 * voluptuous-openapi-model.ts) produce this tree; `toOpenApi` writes it out
 * again as HA's LLM integrations do.
 */
export type HaValidator =
  /** A Python type check: `str`, `int`, `float`, `bool`. */
  | { kind: "type"; type: "str" | "int" | "float" | "bool" }
  /** probatio's `_JsonNumberType` (`JsonInteger()`/`JsonNumber()`): accepts 5.0 as an integer, but has no type hint to write out. */
  | { kind: "json-number"; integer: boolean }
  | { kind: "range"; min?: number; max?: number; minIncluded: boolean; maxIncluded: boolean }
  | { kind: "length"; min?: number; max?: number }
  | { kind: "match"; pattern: string }
  | { kind: "datetime" }
  /** `In([...])`, and a scalar `const` (a literal). */
  | { kind: "in"; values: unknown[] }
  /** `vol.Schema(None)` / probatio's `Literal(None)`. */
  | { kind: "null" }
  /** `object`: anything at all. */
  | { kind: "anything" }
  /** A bare `dict` or `list`: any object, any list. */
  | { kind: "dict" }
  | { kind: "list" }
  | { kind: "all"; of: HaValidator[] }
  | { kind: "any"; of: HaValidator[] }
  /** probatio's `SomeOf(min_valid=1, max_valid=1)` for `oneOf`. */
  | { kind: "one-of"; of: HaValidator[] }
  /** probatio's `Maybe` for `nullable: true`. */
  | { kind: "maybe"; of: HaValidator }
  /** A dict schema: its keys, and what it does with other keys. */
  | { kind: "mapping"; keys: HaKey[]; extra: "allow" | "prevent" | HaValidator }
  /** `[item]`: a list whose items each match one of `items`. */
  | { kind: "sequence"; items: HaValidator[] }
  /** A `$ref`, resolved when it first validates (voluptuous-openapi's `LazySchema`, probatio's `_DeferredRef`). */
  | { kind: "ref"; ref: string };

export interface HaKey {
  name: string;
  required: boolean;
  description?: string;
  default?: unknown;
  value: HaValidator;
}

type Json = Record<string, unknown>;
const OPEN_OBJECT = { type: "object", additionalProperties: true };
const BOUND_KEYS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const PY_TYPES = { str: "string", int: "integer", float: "number", bool: "boolean" } as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The OpenAPI 3.0 schema HA's LLM integrations write for their model from a
 * validator: `probatio.to_openapi` (codecs/openapi.py, `_oa` and helpers),
 * which was written to give voluptuous-openapi's `convert` output, so it
 * stands for both. What matters here is what it loses: a validator without a
 * type hint (probatio's `JsonInteger()`) comes out typeless, and a typeless
 * value gets `type: "string"` (`_ensure_default`), or `"number"` beside bounds.
 */
export function toOpenApi(node: HaValidator): Json {
  return admitNull(render(node)) as Json;
}

function render(node: HaValidator): Json {
  switch (node.kind) {
    case "type":
      return { type: PY_TYPES[node.type] };
    case "json-number":
      // `_oa_callable`: `__call__(self, value: Any)` has no usable hint, so an open schema.
      return {};
    case "range": {
      const out: Json = {};
      // OpenAPI 3.0's boolean exclusive flags (`_oa_bound`).
      if (node.min !== undefined) Object.assign(out, { minimum: node.min }, node.minIncluded ? {} : { exclusiveMinimum: true });
      if (node.max !== undefined) Object.assign(out, { maximum: node.max }, node.maxIncluded ? {} : { exclusiveMaximum: true });
      return out;
    }
    case "length":
      return { ...(node.min !== undefined ? { minLength: node.min } : {}), ...(node.max !== undefined ? { maxLength: node.max } : {}) };
    case "match":
      return { pattern: node.pattern };
    case "datetime":
      return { type: "string", format: "date-time" };
    case "in":
      return renderEnum(node.values);
    case "null":
      return { type: "object", nullable: true, description: "Must be null" };
    case "anything":
    case "dict":
      return { ...OPEN_OBJECT };
    case "list":
      return { type: "array", items: { type: "string" } };
    case "ref":
      // `_DeferredRef.__call__(self, data: Any)`: open, like any unhinted callable.
      return {};
    case "one-of":
      return { oneOf: node.of.map(render) };
    case "maybe":
      return renderAny([{ kind: "null" }, node.of]);
    case "any":
      return renderAny(node.of);
    case "all":
      return renderAll(node.of);
    case "sequence": {
      const items = node.items.map((i) => ensureDefault(render(i)));
      if (items.length === 0) return { type: "array", maxItems: 0 };
      return { type: "array", items: items.length === 1 ? items[0] : { anyOf: items } };
    }
    case "mapping":
      return renderMapping(node);
  }
}

/** `_ensure_default`: a value with no type and no combinator is a string, or a number beside numeric bounds. */
function ensureDefault(value: Json): Json {
  if ("$ref" in value) return value;
  if (["type", "anyOf", "oneOf", "allOf", "not"].every((k) => !(k in value))) value.type = BOUND_KEYS.some((k) => k in value) ? "number" : "string";
  return value;
}

/** `_oa_enum`: one member type labels the enum; null becomes `nullable`. */
function renderEnum(values: unknown[]): Json {
  const kept = values.filter((v) => v !== null);
  const types = new Set(kept.map((v) => (typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v)));
  const out: Json = {};
  if (types.size === 1) out.type = [...types][0] === "boolean" ? "boolean" : ([...types][0] as string);
  out.enum = kept.length < values.length ? [...kept, null] : kept;
  if (kept.length < values.length) out.nullable = true;
  return out;
}

/** `_oa_all`: parts merged into one object, or `allOf` when two parts disagree on a key; an array's or object's Length moves to its own keywords. */
function renderAll(of: HaValidator[]): Json {
  let merged: Json = {};
  const parts: Json[] = [];
  let fallback = false;
  for (const v of of) {
    const part = render(v);
    if (Object.keys(part).length === 0 || parts.some((p) => same(p, part)) || same(part, OPEN_OBJECT)) continue;
    if (Object.keys(part).some((k) => k in merged && !same(merged[k], part[k]))) fallback = true;
    parts.push(part);
    if (!fallback) merged = { ...merged, ...part };
  }
  if (fallback) return { allOf: parts };
  const keys = merged.type === "array" ? ["minItems", "maxItems"] : merged.type === "object" ? ["minProperties", "maxProperties"] : undefined;
  if (keys) {
    if ("minLength" in merged) [merged[keys[0]!], merged.minLength] = [merged.minLength, undefined];
    if ("maxLength" in merged) [merged[keys[1]!], merged.maxLength] = [merged.maxLength, undefined];
    merged = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
  }
  return ensureDefault(merged);
}

/** `_oa_any` for OpenAPI 3.0: a None branch becomes `nullable`; duplicate branches fold; one branch left is the schema itself. */
function renderAny(of: HaValidator[]): Json {
  const nullable = of.some((v) => v.kind === "null");
  const rest = of.filter((v) => v.kind !== "null");
  if (rest.length === 0) return render({ kind: "null" });
  if (rest.length === 1) {
    const one = render(rest[0]!);
    return nullable ? { ...one, nullable: true } : one;
  }
  const branches: Json[] = [];
  for (const b of rest.map(render).flatMap((b) => (Array.isArray(b.anyOf) ? (b.anyOf as Json[]) : [b]))) if (!branches.some((x) => same(x, b))) branches.push(b);
  const out: Json = branches.length === 1 ? branches[0]! : { anyOf: branches };
  return nullable ? { ...out, nullable: true } : out;
}

/** `_oa_mapping` + `_assemble_object`: declared keys as properties, a typed extra as additionalProperties, a closed mapping says false. */
function renderMapping(node: Extract<HaValidator, { kind: "mapping" }>): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const key of node.keys) {
    const value = render(key.value);
    if (key.description !== undefined) value.description = key.description;
    if (key.default !== undefined) value.default = key.default;
    if (key.required) required.push(key.name);
    properties[key.name] = ensureDefault(value);
  }
  let additional: unknown = node.extra === "allow" ? true : undefined;
  if (typeof node.extra === "object") {
    const typed = ensureDefault(render(node.extra));
    additional = same(typed, OPEN_OBJECT) ? true : typed;
  }
  const out: Json = { type: "object" };
  if (Object.keys(properties).length || !additional) {
    out.properties = properties;
    if (required.length) out.required = required;
  }
  if (additional) out.additionalProperties = additional;
  else if (node.extra === "prevent") out.additionalProperties = false;
  return out;
}

/** `_admit_null` (3.0): `nullable` on a combinator does nothing, so null becomes a branch of it. */
function admitNull(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(admitNull);
  if (!value || typeof value !== "object") return value;
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, admitNull(v)])) as Json;
  const combinator = ["anyOf", "oneOf", "allOf"].find((k) => k in out);
  if (out.nullable === true && combinator) {
    out[combinator] = [...(out[combinator] as unknown[]), render({ kind: "null" })];
    delete out.nullable;
  }
  return out;
}
