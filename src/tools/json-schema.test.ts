import { z } from "zod";
import { describe, expect, it } from "vitest";
import { forModel, publishAs, toolJsonSchema, withoutDescriptions } from "./json-schema.js";

describe("toolJsonSchema", () => {
  const schema = z.object({ query: z.string(), limit: z.number().default(10), when: z.date().optional() });

  it("describes what a caller may send: defaulted fields are optional, and there is no $schema", () => {
    const json = toolJsonSchema(schema, "input");
    expect(json.$schema).toBeUndefined();
    expect(json.required).toEqual(["query"]);
    expect(json.type).toBe("object");
  });

  it("describes what the tool returns: defaulted fields are always there", () => {
    expect(toolJsonSchema(schema, "output").required).toEqual(["query", "limit"]);
  });

  it("turns what JSON Schema cannot express into an open schema instead of throwing", () => {
    expect((toolJsonSchema(schema, "input").properties as Record<string, unknown>).when).toEqual({});
  });
});

describe("toolJsonSchema for Home Assistant's converters", () => {
  it("publishes an open object as additionalProperties: true, without empty properties", () => {
    const json = toolJsonSchema(z.object({ data: z.record(z.string(), z.unknown()), loose: z.looseObject({}), typed: z.object({}).catchall(z.string()) }), "input");
    const properties = json.properties as Record<string, Record<string, unknown>>;
    expect(properties.loose).toEqual({ type: "object", additionalProperties: true });
    expect(properties.typed).toEqual({ type: "object", additionalProperties: { type: "string" } });
    expect(properties.data!.additionalProperties).toBe(true);
  });

  it("publishes a schema given to publishAs as its stated form, keeping its description, while it still accepts the rest", () => {
    const either = publishAs(z.union([z.looseObject({}), z.string()]), { type: "object", additionalProperties: true });
    const schema = z.object({ config: either.optional().describe("The automation.") });
    expect((toolJsonSchema(schema, "input").properties as Record<string, unknown>).config).toEqual({ type: "object", additionalProperties: true, description: "The automation." });
    expect(schema.parse({ config: "alias: x" })).toEqual({ config: "alias: x" });
  });
});

describe("what tools/list publishes", () => {
  const schema = z.object({
    session_id: z.string().regex(/^[0-9A-Z]{26}$/).describe("From start_session"),
    name: z.string().min(1).max(255).optional(),
    ids: z.array(z.string()).min(0).max(50).optional(),
    count: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(100).default(10).describe("1-100"),
    description: z.string().min(2).describe("A field named like a keyword"),
  });

  it("gives a model the input without bounds that only guard the tool, keeping those it needs", () => {
    const json = forModel(toolJsonSchema(schema, "input"));
    expect(JSON.stringify(json)).not.toMatch(/"maxLength"|"pattern"|"minItems":0|"minLength":1|9007199254740991/);
    expect(json.properties).toEqual({
      session_id: { type: "string", description: "From start_session" },
      name: { type: "string" },
      ids: { type: "array", maxItems: 50, items: { type: "string" } },
      count: { type: "integer", exclusiveMinimum: 0 },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "1-100" },
      description: { type: "string", minLength: 2, description: "A field named like a keyword" },
    });
    expect(schema.safeParse({ session_id: "x", description: "ok" }).success).toBe(false);
  });

  it("publishes an output schema without descriptions, keeping a field that is called description", () => {
    const json = withoutDescriptions(toolJsonSchema(schema, "output"));
    expect(JSON.stringify(json)).not.toContain("From start_session");
    expect(Object.keys(json.properties as object)).toContain("description");
    expect(json.required).toEqual(toolJsonSchema(schema, "output").required);
  });
});
