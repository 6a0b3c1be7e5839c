import { z } from "zod";
import { describe, expect, it } from "vitest";
import { toolJsonSchema } from "./json-schema.js";

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
