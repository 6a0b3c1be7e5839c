import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, ok } from "../tools/index.js";
import { declarationOf } from "./declaration.js";

const spec = defineTool({
  name: "find",
  title: "Find",
  description: "Finds things.",
  input: z.object({
    query: z.string().max(500).describe("What to look for"),
    ids: z.array(z.string().max(255)).min(0).max(50).optional(),
    limit: z.number().int().min(1).max(100).default(10),
    maxLength: z.number().int().optional(),
  }),
  output: z.object({}),
  annotations: {},
  invoke: async () => ok({}),
});

describe("a tool's declaration for the model", () => {
  it("leaves out the bounds that tell a model nothing, and keeps the rest", () => {
    const { parameters } = declarationOf(spec);
    expect(JSON.stringify(parameters)).not.toMatch(/"maxLength":\d|"minItems":0/);
    expect(parameters).toMatchObject({
      type: "object",
      required: ["query"],
      properties: {
        query: { type: "string", description: "What to look for" },
        ids: { type: "array", maxItems: 50, items: { type: "string" } },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
        // A field that happens to carry a keyword's name stays.
        maxLength: { type: "integer" },
      },
    });
  });

  it("is computed once per tool", () => {
    expect(declarationOf(spec)).toBe(declarationOf(spec));
  });
});
