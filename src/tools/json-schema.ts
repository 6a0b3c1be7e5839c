import { z } from "zod";

/**
 * A tool's input or output schema as JSON Schema (draft 7), the one form both
 * MCP clients and models read. `io: "input"` describes what a caller may send
 * (fields with defaults are optional); `"output"` what the tool returns.
 * Parts JSON Schema cannot express become `{}`, and `$schema` is left out
 * because clients and model APIs reject or ignore it.
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}
