import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "@modelcontextprotocol/client";
import { HA_CONVERTERS, haConvertSchema, haSchemaViolations } from "../support/ha/schema-converters.js";
import { startStack, type Stack } from "../support/stack.js";

/**
 * Home Assistant's `mcp` integration converts every listed tool's
 * inputSchema, and one refusal fails the whole entry: Assist then gets none
 * of our tools. The tools are listed here as HA lists them, over /mcp with a
 * real MCP client, and each schema is held to the rules of
 * test/support/ha/schema-converters.ts (docs/architecture.md,
 * "Schemas Home Assistant takes").
 */
describe("the tool schemas Home Assistant converts", () => {
  let stack: Stack;
  let tools: Tool[];

  beforeAll(async () => {
    stack = await startStack();
    tools = (await stack.client.listTools()).tools;
  });
  afterAll(() => stack.close());

  it("lists every tool", () => {
    expect(tools.length).toBeGreaterThan(20);
  });

  it("breaks none of the rules, in any tool", () => {
    const broken = tools.flatMap((tool) => haSchemaViolations(tool.inputSchema).map((v) => `${tool.name}: ${v.rule} at ${v.path} (${v.detail})`));
    expect(broken).toEqual([]);
  });

  it("states each numeric maximum in a description, since Google's _format_schema drops every bound", () => {
    const unstated = tools.flatMap((tool) => unstatedMaxima(tool.inputSchema, tool.name, ""));
    expect(unstated).toEqual([]);
  });

  it.each(HA_CONVERTERS)("converts every tool under %s", (converter) => {
    for (const tool of tools) expect(() => haConvertSchema(tool.inputSchema, converter), tool.name).not.toThrow();
  });
});

/** Numeric parameters whose maximum neither their description nor their parent's says (MAX_SAFE_INTEGER, zod's "any integer", excepted). */
function unstatedMaxima(schema: Record<string, unknown>, path: string, parentDescription: string): string[] {
  const description = `${typeof schema.description === "string" ? schema.description : ""} ${parentDescription}`;
  const max = schema.maximum;
  const own = (schema.type === "integer" || schema.type === "number") && typeof max === "number" && max < Number.MAX_SAFE_INTEGER && !description.includes(String(max)) ? [`${path} (at most ${max})`] : [];
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return [...own, ...Object.entries(properties).flatMap(([key, sub]) => unstatedMaxima(sub, `${path}.${key}`, typeof schema.description === "string" ? schema.description : ""))];
}
