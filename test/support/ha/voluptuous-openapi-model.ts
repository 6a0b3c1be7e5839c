import type { HaKey, HaValidator } from "./validator-tree.js";

/**
 * `voluptuous_openapi.convert_to_voluptuous` 0.4.x
 * (home-assistant-libs/voluptuous-openapi, voluptuous_openapi/__init__.py),
 * as HA 2026.7–2026.8 runs it on a tool's inputSchema
 * (`homeassistant/components/mcp/coordinator.py`, `_async_update_data`).
 * It throws `VoluptuousRefusal` where the library raises `ValueError` (or,
 * for an array without items, `KeyError`), with the library's message.
 */
export class VoluptuousRefusal extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

/** `OPENAPI_UNSUPPORTED_KEYWORDS`. */
const UNSUPPORTED = ["allOf", "multipleOf", "uniqueItems"];
const BASIC = { string: "str", integer: "int", number: "float", boolean: "bool" } as const;

export function convertToVoluptuous(schema: unknown): HaValidator {
  if (!isObj(schema)) throw new VoluptuousRefusal("not-a-dict", "Invalid schema, expected a dictionary");
  // A $ref becomes a LazySchema, resolved only when it first validates.
  if ("$ref" in schema) return { kind: "ref", ref: String(schema.$ref) };
  // enum is read before anything else, so an enum needs no type.
  if (schema.enum !== undefined && schema.enum !== null) {
    if (!Array.isArray(schema.enum)) throw new VoluptuousRefusal("malformed", "Invalid schema, enum should be a list");
    const inn: HaValidator = { kind: "in", values: schema.enum };
    return schema.nullable === true ? { kind: "any", of: [inn, { kind: "null" }] } : inn;
  }
  for (const keyword of UNSUPPORTED) if (keyword in schema) throw new VoluptuousRefusal(`unsupported-keyword:${keyword}`, `${keyword} is not supported`);
  // oneOf is read with anyOf's meaning: any branch may match.
  if (schema.oneOf !== undefined && schema.oneOf !== null) {
    if (!Array.isArray(schema.oneOf)) throw new VoluptuousRefusal("malformed", "Invalid schema, oneOf should be a list");
    return { kind: "any", of: schema.oneOf.map(convertToVoluptuous) };
  }
  if (schema.anyOf !== undefined && schema.anyOf !== null) {
    if (!Array.isArray(schema.anyOf)) throw new VoluptuousRefusal("malformed", "Invalid schema, anyOf should be a list");
    const requiredOnly = schema.anyOf.every((s) => isObj(s) && Object.keys(s).length === 1 && Array.isArray(s.required));
    if (!(requiredOnly && schema.type === "object")) return { kind: "any", of: schema.anyOf.map(convertToVoluptuous) };
  }
  const type = schema.type;
  if (type === undefined || type === null) throw new VoluptuousRefusal("missing-type", "Invalid schema, missing type");
  if (type === "null") return { kind: "null" };
  if (Array.isArray(type)) {
    if (type.length === 0) throw new VoluptuousRefusal("malformed", "Invalid schema, type array cannot be empty");
    return { kind: "any", of: type.map((t) => (t === "null" ? { kind: "null" } : convertToVoluptuous({ ...schema, type: t }))) };
  }
  const nullable = (v: HaValidator): HaValidator => (schema.nullable === true ? { kind: "any", of: [v, { kind: "null" }] } : v);
  if (typeof type === "string" && type in BASIC) {
    const basic: HaValidator = { kind: "type", type: BASIC[type as keyof typeof BASIC] };
    let validator: HaValidator = basic;
    if (type === "string") {
      if (schema.pattern !== undefined && schema.pattern !== null) validator = { kind: "match", pattern: String(schema.pattern) };
      else if (schema.format === "date-time") validator = { kind: "datetime" };
      else if (has(schema, "minLength") || has(schema, "maxLength")) validator = { kind: "all", of: [basic, { kind: "length", ...num(schema, "minLength", "min"), ...num(schema, "maxLength", "max") }] };
    } else if (type === "integer" || type === "number") {
      // Only minimum and maximum: exclusive bounds are not read.
      if (has(schema, "minimum") || has(schema, "maximum")) validator = { kind: "all", of: [basic, { kind: "range", ...num(schema, "minimum", "min"), ...num(schema, "maximum", "max"), minIncluded: true, maxIncluded: true }] };
    }
    return nullable(validator);
  }
  if (type === "object") {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const keys: HaKey[] = Object.entries(isObj(schema.properties) ? schema.properties : {}).map(([name, value]) => ({
      name,
      required: required.has(name),
      ...(isObj(value) && typeof value.description === "string" ? { description: value.description } : {}),
      value: convertToVoluptuous(value),
    }));
    const extra = schema.additionalProperties;
    // `additionalProperties: true` allows extra keys; a dict is converted like any schema, so `{}` raises "missing type".
    const validator: HaValidator = { kind: "mapping", keys, extra: extra === true ? "allow" : isObj(extra) ? convertToVoluptuous(extra) : "prevent" };
    return nullable(validator);
  }
  if (type === "array") {
    if (!("items" in schema)) throw new VoluptuousRefusal("missing-items", "'items'");
    const sequence: HaValidator = { kind: "sequence", items: [convertToVoluptuous(schema.items)] };
    const bounded = has(schema, "minItems") || has(schema, "maxItems");
    return nullable(bounded ? { kind: "all", of: [sequence, { kind: "length", ...num(schema, "minItems", "min"), ...num(schema, "maxItems", "max") }] } : sequence);
  }
  throw new VoluptuousRefusal("unknown-type", `Unable to convert schema: ${JSON.stringify(schema)}`);
}

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o: Json, k: string) => o[k] !== undefined && o[k] !== null;
const num = (o: Json, k: string, as: "min" | "max") => (has(o, k) ? { [as]: o[k] as number } : {});
