import type { JsonValue, ToolDeclaration } from "../models/index.js";
import { forModel, toolJsonSchema, type ToolSpec } from "../tools/index.js";

const declarations = new WeakMap<ToolSpec, ToolDeclaration>();

/**
 * A tool's declaration for the model, computed once per spec: its base name
 * and input JSON Schema, without the bounds only the validator needs
 * (`forModel`).
 */
export function declarationOf(spec: ToolSpec): ToolDeclaration {
  let d = declarations.get(spec);
  if (!d) {
    d = { name: spec.name, description: spec.description, parameters: forModel(toolJsonSchema(spec.input, "input")) as Record<string, JsonValue> };
    declarations.set(spec, d);
  }
  return d;
}
