import type { JsonValue, ToolDeclaration } from "../models/index.js";
import { toolJsonSchema, type ToolSpec } from "../tools/index.js";

const declarations = new WeakMap<ToolSpec, ToolDeclaration>();

/**
 * A tool's declaration for the model, computed once per spec: its base name
 * and input JSON Schema, without the bounds only the validator needs.
 */
export function declarationOf(spec: ToolSpec): ToolDeclaration {
  let d = declarations.get(spec);
  if (!d) {
    d = { name: spec.name, description: spec.description, parameters: forModel(toolJsonSchema(spec.input, "input")) as Record<string, JsonValue> };
    declarations.set(spec, d);
  }
  return d;
}

/**
 * Every declaration is sent with every model request, and a local model's
 * window is small: a string's `maxLength` (an id or a phrase never comes near
 * it) and an array's `minItems: 0` tell the model nothing. The tool still
 * checks both, and a call that breaks one is answered with the fix.
 */
function forModel(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forModel);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "maxLength" || (key === "minItems" && value === 0)) continue;
    // Inside `properties` the keys are field names, never keywords.
    out[key] = key === "properties" && value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([name, v]) => [name, forModel(v)])) : forModel(value);
  }
  return out;
}
