import { z } from "zod";
import { dict } from "../shared/index.js";

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

/** Keywords whose value maps names, not keywords, to schemas. */
const NAMED_SCHEMAS = new Set(["properties", "patternProperties", "definitions", "$defs"]);

/** A JSON Schema without the keywords `drop` picks; a field named like a keyword stays. */
function pruned(schema: unknown, drop: (key: string, value: unknown) => boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => pruned(s, drop));
  if (!schema || typeof schema !== "object") return schema;
  const out = dict<unknown>();
  for (const [key, value] of Object.entries(schema)) {
    if (drop(key, value)) continue;
    out[key] =
      NAMED_SCHEMAS.has(key) && value && typeof value === "object"
        ? dict(Object.fromEntries(Object.entries(value).map(([name, v]) => [name, pruned(v, drop)])))
        : pruned(value, drop);
  }
  return out;
}

/** Bounds that only guard the tool: the validator checks them, and its message says the fix. */
const guardOnly = (key: string, value: unknown): boolean =>
  key === "maxLength" || key === "pattern" || (key === "minLength" && value === 1) || (key === "minItems" && value === 0) || (key === "maximum" && value === Number.MAX_SAFE_INTEGER);

/**
 * An input schema as a model reads it, in tools/list and in the agent's own
 * requests, both sent with every request. Some keywords tell a model
 * nothing: a string's `maxLength` (an id or a phrase never comes near it),
 * a `pattern` (ids come from earlier answers; the description's example
 * shows a service's form), `minLength: 1`, `minItems: 0` and zod's
 * `maximum` of any integer. The tool still checks them all, and a call
 * that breaks one is answered with the fix.
 */
export function forModel(schema: Record<string, unknown>): Record<string, unknown> {
  return pruned(schema, guardOnly) as Record<string, unknown>;
}

/**
 * An output schema as tools/list publishes it: the shape, types and enums a
 * client checks `structuredContent` against, without the per-field
 * descriptions, which no client hands its model, though every client
 * carries them (docs/performance.md, "Each tool's cost").
 */
export function withoutDescriptions(schema: Record<string, unknown>): Record<string, unknown> {
  return pruned(schema, (key, value) => key === "description" && typeof value === "string") as Record<string, unknown>;
}
