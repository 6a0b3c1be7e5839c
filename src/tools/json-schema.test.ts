import { z } from "zod";
import { describe, expect, it } from "vitest";
import { publishAs, toolJsonSchema } from "./json-schema.js";

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
