import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";

const text = (result: Record<string, unknown>) => ((result.content as { type: string; text: string }[])[0]?.text ?? "");

describe("tools over MCP", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("lists every tool with input and output schemas and MCP annotations", async () => {
    const { tools } = await stack.client.listTools();
    for (const tool of tools) {
      expect(tool.name).toMatch(/^ha_agent_[a-z_]+$/);
      expect(tool.name.length).toBeLessThanOrEqual(64);
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations).toBeDefined();
    }
    const query = tools.find((t) => t.name === "ha_agent_state_query");
    expect(query?.annotations?.readOnlyHint).toBe(true);
  });

  it("says which argument is wrong and why", async () => {
    const result = await stack.client.callTool({ name: "ha_agent_state_query", arguments: { area: "kitchen", limit: "many" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^limit: /);
    expect(text(result)).toMatch(/number/);
    expect(text(result)).toMatch(/\(invalid_argument\)$/);
  });

  it("answers an unknown tool with an error result that points at tools/list", async () => {
    const result = await stack.client.callTool({ name: "ha_agent_make_coffee", arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/tools\/list/);
  });

  it("sends progress notifications from a long tool to a caller that asked for them", async () => {
    const updates: { progress: number; total?: number; message?: string }[] = [];
    const result = await stack.client.callTool({ name: "ha_agent_diagnose_entity", arguments: { entity_id: "switch.garden_fountain_pump" } }, {
      onprogress: (p) => updates.push(p),
    });
    expect(result.isError).toBeFalsy();
    expect(updates.map((u) => u.progress)).toEqual([1, 2, 3, 4]);
    expect(updates.every((u) => u.total === 4)).toBe(true);
    expect(updates.map((u) => u.message).sort()).toEqual(["error log read", "history read", "logbook read", "system log read"]);
  });

  it("returns the index_search contract: results with entity_id, name, domain, area, state, score and why", async () => {
    const result = await stack.client.callTool({ name: "ha_agent_index_search", arguments: { query: "kitchen lights" } });
    expect(result.isError).toBeFalsy();
    const { results } = result.structuredContent as { results: Record<string, unknown>[] };
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(Object.keys(r)).toEqual(expect.arrayContaining(["entity_id", "name", "domain", "area", "state", "score", "why"]));
    expect(results[0]?.entity_id).toMatch(/^light\.kitchen/);
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
  });
});

describe('tool_name_separator "."', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { TOOL_NAME_SEPARATOR: "." } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("serves the dotted names of the original design, and only those", async () => {
    const names = (await stack.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("ha_agent.state_query");
    expect(names.every((n) => n.startsWith("ha_agent."))).toBe(true);
    const result = await stack.client.callTool({ name: "ha_agent.state_query", arguments: { area: "kitchen" } });
    expect(result.isError).toBeFalsy();
    expect((await stack.client.callTool({ name: "ha_agent_state_query", arguments: {} })).isError).toBe(true);
  });
});
