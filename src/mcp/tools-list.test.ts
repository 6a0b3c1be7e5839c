import { describe, expect, it } from "vitest";
import type { HaClient } from "../ha/index.js";
import type { HomeIndex } from "../indexer/index.js";
import { estimateTokens } from "../models/index.js";
import type { Store } from "../store/index.js";
import { createAgentTools, createCallServiceTool, createGroundingTools, createLogicTools, createSessionTools, createTimeTools, ToolRegistry, type AgentService } from "../tools/index.js";
import { describeTools } from "./tool-bridge.js";

/** Every tool the program serves, as app.ts registers them. */
function fullRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  const index = {} as HomeIndex;
  const ha = {} as HaClient;
  for (const t of [
    ...createGroundingTools({ index, ha }),
    ...createTimeTools({ index, ha }),
    createCallServiceTool({ ha, index, ceiling: { allow: false, allowlist: [] } }),
    ...createLogicTools({ index, ha }),
    ...createSessionTools({ store: {} as Store }),
    ...createAgentTools({ agent: {} as AgentService }),
  ])
    registry.register(t);
  return registry;
}

const tokens = (value: unknown) => estimateTokens(JSON.stringify(value));

describe("tools/list", () => {
  it("is computed once per registry and shared by the server of every request", () => {
    const registry = fullRegistry();
    expect(describeTools(registry)).toBe(describeTools(registry));
  });

  it("stays within 400 tokens per tool on average for names, descriptions and input schemas", () => {
    const tools = describeTools(fullRegistry());
    const inputs = tools.map((t) => tokens({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const whole = tokens({ tools });
    const average = inputs.reduce((a, b) => a + b, 0) / tools.length;
    console.error(`tools/list: ${tools.length} tools, ${Math.round(average)} tokens per tool without output schemas, ${whole} tokens in all with them`);
    expect(average).toBeLessThanOrEqual(400);
    expect(Math.max(...inputs)).toBeLessThanOrEqual(800);
  });
});
