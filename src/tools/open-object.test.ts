import { z } from "zod";
import { describe, expect, it } from "vitest";
import { fromGeminiJson, openObject } from "./open-object.js";

describe("fromGeminiJson", () => {
  it("reads Google's {json: text} as the object the text holds", () => {
    expect(fromGeminiJson({ json: '{"brightness_pct": 40}' })).toEqual({ brightness_pct: 40 });
    expect(fromGeminiJson({ json: "" })).toEqual({});
  });

  it("reads the text after HA's escape_decode turned \\n inside its strings into newlines", () => {
    expect(fromGeminiJson({ json: '{"message": "line one\nline two"}' })).toEqual({ message: "line one\nline two" });
  });

  it("leaves anything else as it is: other keys, text that is not a JSON object", () => {
    expect(fromGeminiJson({ json: "x", other: 1 })).toEqual({ json: "x", other: 1 });
    expect(fromGeminiJson({ json: "[1, 2]" })).toEqual({ json: "[1, 2]" });
    expect(fromGeminiJson({ json: "alias: x" })).toEqual({ json: "alias: x" });
    expect(fromGeminiJson("text")).toBe("text");
  });
});

describe("openObject", () => {
  const schema = openObject({ maxKeys: 2, maxKeyLength: 5 });

  it("checks the number of keys and their length itself, since the JSON Schema does not say them", () => {
    expect(schema.safeParse({ a: 1, b: 2 }).success).toBe(true);
    expect(schema.safeParse({ a: 1, b: 2, c: 3 }).error?.issues[0]?.message).toBe("at most 2 keys");
    expect(schema.safeParse({ toolong: 1 }).error?.issues[0]?.message).toMatch(/longer than 5 characters/);
  });

  it("takes Google's {json: text} form", () => {
    expect(schema.parse({ json: '{"a": 1}' })).toEqual({ a: 1 });
  });

  it("keeps a typed value schema", () => {
    expect(openObject({ maxKeys: 3, value: z.string() }).safeParse({ a: 1 }).success).toBe(false);
  });
});
