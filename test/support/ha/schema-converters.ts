import { googleFormatSchema } from "./google-format.js";
import { ProbatioRefusal, probatioFromOpenapi } from "./probatio-model.js";
import { toOpenApi, type HaValidator } from "./validator-tree.js";
import { VoluptuousRefusal, convertToVoluptuous } from "./voluptuous-openapi-model.js";

export { googleFormatSchema, toOpenApi, type HaValidator };

/**
 * The converter HA's `mcp` integration runs on each tool's inputSchema:
 * probatio's `from_openapi` from 2026.9, voluptuous-openapi's
 * `convert_to_voluptuous` (0.4.x) in 2026.7–2026.8.
 */
export type HaConverter = "probatio" | "voluptuous-openapi-0.4";
export const HA_CONVERTERS: readonly HaConverter[] = ["probatio", "voluptuous-openapi-0.4"];

/** Where HA's converter raises: the whole `mcp` entry fails (`UpdateFailed`) and Assist gets none of the server's tools. */
export class HaSchemaRefusal extends Error {
  constructor(
    readonly converter: HaConverter,
    readonly rule: string,
    message: string,
  ) {
    super(`${converter}: ${message}`);
    this.name = "HaSchemaRefusal";
  }
}

/** Converts like HA does; throws HaSchemaRefusal where HA's converter raises. Returns the validator tree (validator-tree.ts). */
export function haConvertSchema(schema: Record<string, unknown>, converter: HaConverter): HaValidator {
  try {
    return converter === "probatio" ? probatioFromOpenapi(schema) : convertToVoluptuous(schema);
  } catch (err) {
    if (err instanceof ProbatioRefusal || err instanceof VoluptuousRefusal) throw new HaSchemaRefusal(converter, err.rule, err.message);
    throw err;
  }
}

/** The schema HA's LLM integrations hand their model for this tool: the converted validator written out again (`to_openapi`). */
export function haModelSchema(schema: Record<string, unknown>, converter: HaConverter): Record<string, unknown> {
  return toOpenApi(haConvertSchema(schema, converter));
}

export interface HaSchemaViolation {
  rule: string;
  path: string;
  detail: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const typesOf = (s: Json): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : []);

/**
 * Every rule violation in one tool's published inputSchema, each naming its
 * rule and JSON pointer. Empty when HA takes it whole, under either
 * converter, and every parameter reaches the model with its own type.
 * The rules (docs/architecture.md, "Schemas Home Assistant takes"):
 * - `propertyNames`: probatio refuses it.
 * - `maxProperties` / `minProperties`: probatio writes an open object with one out as a string.
 * - `additionalProperties: {}`: voluptuous-openapi refuses a typeless schema; say `true`.
 * - `null-branch`: `{type: "null"}` in anyOf/oneOf, `"null"` in a type list, or `nullable`; Google drops the type of such a union.
 * - `mixed-type-union`: anyOf/oneOf or a type list over several types (object-or-string); Google keeps no type for it.
 * - `type-lost`: an integer or number that probatio writes out as a string (one without bounds).
 * - `refused:<converter>:<rule>`: the converter raises.
 */
export function haSchemaViolations(schema: Record<string, unknown>): HaSchemaViolation[] {
  const found: HaSchemaViolation[] = [];
  walk(schema, "#", found);
  for (const converter of HA_CONVERTERS) {
    try {
      haConvertSchema(schema, converter);
    } catch (err) {
      if (!(err instanceof HaSchemaRefusal)) throw err;
      found.push({ rule: `refused:${converter}:${err.rule}`, path: "#", detail: err.message });
    }
  }
  let written: Json | undefined;
  try {
    written = haModelSchema(schema, "probatio");
  } catch {
    // Already reported as a refusal.
  }
  if (written) compareTypes(schema, written, "#", found);
  return found;
}

function walk(node: unknown, path: string, found: HaSchemaViolation[]): void {
  if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`, found));
  if (!isObj(node)) return;
  if ("propertyNames" in node) found.push({ rule: "propertyNames", path, detail: "probatio refuses propertyNames; check keys in the server instead" });
  for (const key of ["maxProperties", "minProperties"]) if (key in node) found.push({ rule: key, path, detail: `probatio writes an object with ${key} out as a string; enforce it in the server and say it in the description` });
  const extra = node.additionalProperties;
  if (isObj(extra) && !("type" in extra) && !("enum" in extra) && !("anyOf" in extra) && !("oneOf" in extra) && !("$ref" in extra)) {
    found.push({ rule: "additionalProperties: {}", path: `${path}/additionalProperties`, detail: 'voluptuous-openapi 0.4 raises "Invalid schema, missing type"; publish true' });
  }
  const types = typesOf(node);
  if (node.nullable === true || types.includes("null")) found.push({ rule: "null-branch", path, detail: "a null type; clear the field another way (an empty value)" });
  if (types.filter((t) => t !== "null").length > 1) found.push({ rule: "mixed-type-union", path, detail: `one parameter of types ${types.join(", ")}; offer one parameter per type` });
  for (const key of ["anyOf", "oneOf"]) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    if (branches.some((b) => isObj(b) && typesOf(b).includes("null"))) found.push({ rule: "null-branch", path: `${path}/${key}`, detail: "a union with a null branch loses its type in Google's _format_schema" });
    const branchTypes = new Set(branches.flatMap((b) => (isObj(b) ? typesOf(b).filter((t) => t !== "null") : [])));
    if (branchTypes.size > 1) found.push({ rule: "mixed-type-union", path: `${path}/${key}`, detail: `a union of ${[...branchTypes].join(" and ")}; offer one parameter per type` });
  }
  for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`, found);
}

/** A parameter published as a number that the model is told is a string (probatio's unbounded `JsonInteger()`). */
function compareTypes(published: Json, written: Json, path: string, found: HaSchemaViolation[]): void {
  const was = typesOf(published);
  if ((was.includes("integer") || was.includes("number")) && written.type === "string") found.push({ rule: "type-lost", path, detail: `published as ${was.join("/")}, written out for the model as a string; give it bounds` });
  const pp = published.properties;
  const wp = written.properties;
  if (isObj(pp) && isObj(wp)) for (const [k, v] of Object.entries(pp)) if (isObj(v) && isObj(wp[k])) compareTypes(v, wp[k], `${path}/properties/${k}`, found);
  if (isObj(published.items) && isObj(written.items)) compareTypes(published.items, written.items, `${path}/items`, found);
}
