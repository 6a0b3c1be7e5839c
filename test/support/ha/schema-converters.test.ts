import { describe, expect, it } from "vitest";
import { googleFormatSchema, haConvertSchema, haModelSchema, HaSchemaRefusal, haSchemaViolations, type HaConverter } from "./schema-converters.js";

// Cases follow the libraries' own tests: voluptuous-openapi tests/test_lib.py
// (test_reverse_*, test_unsupported_features, test_convert_to_voluptuous_*),
// probatio tests/codecs/test_from_openapi.py and test_from_json_schema.py
// (test_unsupported_keyword_fails_closed, test_nullable_*, test_array_item_count_bounds).

function refusal(schema: Record<string, unknown>, converter: HaConverter): HaSchemaRefusal | undefined {
  try {
    haConvertSchema(schema, converter);
    return undefined;
  } catch (err) {
    if (err instanceof HaSchemaRefusal) return err;
    throw err;
  }
}

describe("voluptuous-openapi 0.4 model", () => {
  const convert = (s: Record<string, unknown>) => haConvertSchema(s, "voluptuous-openapi-0.4");

  it("turns each basic type into the Python type", () => {
    expect(convert({ type: "integer" })).toEqual({ kind: "type", type: "int" });
    expect(convert({ type: "string" })).toEqual({ kind: "type", type: "str" });
    expect(convert({ type: "number" })).toEqual({ kind: "type", type: "float" });
    expect(convert({ type: "boolean" })).toEqual({ kind: "type", type: "bool" });
    expect(convert({ type: "string", format: "date-time" })).toEqual({ kind: "datetime" });
  });

  it("raises on a schema without a type, an unknown type, a malformed oneOf and a non-dict", () => {
    expect(refusal({}, "voluptuous-openapi-0.4")?.message).toContain("Invalid schema, missing type");
    expect(refusal({ type: "unknown" }, "voluptuous-openapi-0.4")?.rule).toBe("unknown-type");
    expect(refusal({ oneOf: "integer" }, "voluptuous-openapi-0.4")?.message).toContain("oneOf should be a list");
    expect(refusal({ oneOf: ["integer"] }, "voluptuous-openapi-0.4")?.rule).toBe("not-a-dict");
  });

  it("refuses multipleOf, and an array item without a type", () => {
    expect(refusal({ type: "integer", multipleOf: 2 }, "voluptuous-openapi-0.4")?.message).toContain("multipleOf is not supported");
    expect(refusal({ type: "array", items: { minItems: 1 } }, "voluptuous-openapi-0.4")?.rule).toBe("missing-type");
  });

  it("refuses additionalProperties: {} but takes true", () => {
    expect(refusal({ type: "object", additionalProperties: {} }, "voluptuous-openapi-0.4")?.message).toContain("missing type");
    expect(convert({ type: "object", additionalProperties: true })).toEqual({ kind: "mapping", keys: [], extra: "allow" });
  });

  it("keeps each property's description on its key, required or not", () => {
    const tree = convert({ type: "object", properties: { query: { type: "string", description: "The query" }, max_results: { type: "number" } }, required: ["query"] });
    expect(tree).toMatchObject({ kind: "mapping", keys: [{ name: "query", required: true, description: "The query" }, { name: "max_results", required: false }] });
  });

  it("reads nullable as Any(validator, None) and oneOf as any branch", () => {
    expect(convert({ type: "string", nullable: true })).toEqual({ kind: "any", of: [{ kind: "type", type: "str" }, { kind: "null" }] });
    expect(convert({ type: "array", items: { oneOf: [{ type: "string" }, { type: "integer" }] } })).toMatchObject({ kind: "sequence", items: [{ kind: "any" }] });
  });
});

describe("probatio model", () => {
  const convert = (s: Record<string, unknown>) => haConvertSchema(s, "probatio");

  it.each([{ patternProperties: { "^x": { type: "integer" } } }, { propertyNames: { maxLength: 3 } }, { dependentSchemas: { a: { type: "object" } } }, { if: { type: "string" }, then: { minLength: 1 } }])(
    "refuses a restrictive keyword it cannot honour: %j",
    (node) => {
      expect(refusal(node, "probatio")?.message).toContain("not supported");
    },
  );

  it("wraps a nullable node in Maybe", () => {
    expect(convert({ type: "integer", nullable: true })).toEqual({ kind: "maybe", of: { kind: "json-number", integer: true } });
  });

  it("puts minItems and maxItems on a Length beside the sequence", () => {
    expect(convert({ type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 })).toEqual({
      kind: "all",
      of: [
        { kind: "sequence", items: [{ kind: "json-number", integer: true }] },
        { kind: "length", min: 1, max: 2 },
      ],
    });
  });

  it("takes additionalProperties: {} and true", () => {
    expect(convert({ type: "object", additionalProperties: {} })).toEqual({ kind: "mapping", keys: [], extra: { kind: "anything" } });
    expect(convert({ type: "object", additionalProperties: true })).toEqual({ kind: "mapping", keys: [], extra: "allow" });
  });

  it("refuses a non-local $ref and a Draft 4 exclusive flag without its bound", () => {
    expect(refusal({ $ref: "http://example.com/x" }, "probatio")?.message).toContain("only local JSON pointers");
    expect(refusal({ type: "number", exclusiveMinimum: true }, "probatio")?.message).toContain("requires 'minimum'");
  });
});

describe("what HA writes out for the model after probatio", () => {
  const written = (s: Record<string, unknown>) => haModelSchema({ type: "object", properties: { x: s } }, "probatio").properties as Record<string, Record<string, unknown>>;

  it("tells the model a bare integer is a string, and a bounded one a number", () => {
    expect(written({ type: "integer" }).x).toEqual({ type: "string" });
    expect(written({ type: "integer", minimum: 1, maximum: 5 }).x).toEqual({ type: "number", minimum: 1, maximum: 5 });
  });

  it("tells the model an open object with maxProperties is a string", () => {
    expect(written({ type: "object", additionalProperties: true, maxProperties: 3 }).x).toEqual({ type: "string", maxLength: 3 });
  });

  it("keeps strings, enums, arrays and declared objects", () => {
    expect(written({ type: "string", enum: ["a", "b"] }).x).toEqual({ type: "string", enum: ["a", "b"] });
    expect(written({ type: "array", items: { type: "string", maxLength: 3 }, maxItems: 2 }).x).toEqual({ type: "array", items: { type: "string", maxLength: 3 }, maxItems: 2 });
    expect(written({ type: "object", properties: { a: { type: "boolean" } } }).x).toEqual({ type: "object", properties: { a: { type: "boolean" } }, additionalProperties: false });
  });
});

describe("Google's _format_schema", () => {
  it("keeps only the supported keys, upper-cases types and snake-cases names", () => {
    expect(googleFormatSchema({ type: "array", items: { type: "string", maxLength: 3, pattern: "x" }, minItems: 1, maxItems: 2 })).toEqual({ type: "ARRAY", items: { type: "STRING" }, min_items: 1, max_items: 2 });
  });

  it("offers a free-form object as one string property, json", () => {
    expect(googleFormatSchema({ type: "object", additionalProperties: true })).toEqual({ type: "OBJECT", properties: { json: { type: "STRING" } }, required: [] });
  });

  it("loses the type of a union", () => {
    expect(googleFormatSchema({ anyOf: [{ type: "string" }, { type: "object", nullable: true, description: "Must be null" }], description: "d" })).toEqual({ description: "d" });
  });

  it("makes every enum a string enum", () => {
    expect(googleFormatSchema({ type: "integer", enum: [1, 2] })).toEqual({ type: "STRING", enum: ["1", "2"] });
  });
});

describe("haSchemaViolations", () => {
  it("names each rule with its path", () => {
    const rules = haSchemaViolations({
      type: "object",
      properties: {
        data: { type: "object", propertyNames: { type: "string" }, additionalProperties: {}, maxProperties: 5 },
        persona: { anyOf: [{ type: "string" }, { type: "null" }] },
        config: { anyOf: [{ type: "object", additionalProperties: true }, { type: "string" }] },
        count: { type: "integer" },
      },
    }).map((v) => `${v.rule} ${v.path}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        "propertyNames #/properties/data",
        "maxProperties #/properties/data",
        "additionalProperties: {} #/properties/data/additionalProperties",
        "null-branch #/properties/persona/anyOf",
        "mixed-type-union #/properties/config/anyOf",
        "refused:probatio:unsupported-keyword:propertyNames #",
        "refused:voluptuous-openapi-0.4:missing-type #",
      ]),
    );
    expect(haSchemaViolations({ type: "object", properties: { count: { type: "integer" } } }).map((v) => v.rule)).toEqual(["type-lost"]);
  });

  it("is empty for a schema HA takes whole", () => {
    expect(haSchemaViolations({ type: "object", properties: { a: { type: "integer", minimum: 1, maximum: 3 }, b: { type: "object", additionalProperties: true } }, required: ["a"] })).toEqual([]);
  });
});
