import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../../test/support/stack.js";
import { DEFINITIONS_TARGET, definitionTokens } from "./definitions.js";

/** The figure `npm run bench:tools` reports, held here so that a longer description fails a test rather than a benchmark nobody ran. */
describe("the tool definitions every MCP client carries", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it(`keep /mcp's names, descriptions and input schemas within ${DEFINITIONS_TARGET} tokens`, async () => {
    const { tools } = await stack.client.listTools();
    const costs = tools.map((t) => ({ tool: t.name, tokens: definitionTokens(t) })).sort((a, b) => b.tokens - a.tokens);
    const total = costs.reduce((sum, c) => sum + c.tokens, 0);
    const largest = costs.slice(0, 5).map((c) => `${c.tool} ${c.tokens}`).join(", ");
    expect(tools.length).toBeGreaterThan(20);
    expect(total, `${tools.length} tools take ${total} tokens; the largest: ${largest}`).toBeLessThanOrEqual(DEFINITIONS_TARGET);
  });
});
