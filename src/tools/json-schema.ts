import { z } from "zod";

/** Schemas that accept more than they publish, with what they publish instead. */
const published = new WeakMap<object, Record<string, unknown>>();

/**
 * Publishes `schema` as `json` (its description kept) while it still
 * accepts all it did: an older form of an argument stays valid for the
 * clients that send it, without showing Home Assistant's converters a union
 * they refuse or flatten (docs/architecture.md, "Schemas Home Assistant takes").
 */
export function publishAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  published.set(schema, json);
  return schema;
}

/**
 * A tool's input or output schema as JSON Schema (draft 7), the one form both
 * MCP clients and models read. `io: "input"` describes what a caller may send
 * (fields with defaults are optional); `"output"` what the tool returns.
 * Parts JSON Schema cannot express become `{}`, and `$schema` is left out
 * because clients and model APIs reject or ignore it. An open object's
 * `additionalProperties: {}` is published as `true` (and its empty
 * `properties` left out): voluptuous-openapi refuses a schema without a
 * type, which would fail every tool in Home Assistant.
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    target: "draft-7",
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const own = published.get(ctx.zodSchema);
      const out = ctx.jsonSchema as Record<string, unknown>;
      if (own) {
        const { description } = out;
        for (const key of Object.keys(out)) delete out[key];
        Object.assign(out, own, description === undefined ? {} : { description });
      }
      if (isEmptySchema(out.additionalProperties)) out.additionalProperties = true;
      // An open object's empty `properties` says nothing, and every token is sent with every request.
      if (isEmptySchema(out.properties) && out.additionalProperties !== undefined && out.additionalProperties !== false) delete out.properties;
    },
  }) as Record<string, unknown>;
  const { $schema: _ignored, ...rest } = json;
  return rest;
}

const isEmptySchema = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
