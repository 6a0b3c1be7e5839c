import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator, haStyleToken } from "../../src/simulator/index.js";
import { callTool } from "../support/mcp.js";
import { connectClient, startStack, type Stack } from "../support/stack.js";

const NOISY = { id: "user-noisy", name: "Noisy", isAdmin: false, tokens: [haStyleToken("noisy")] };
const CALM = { id: "user-calm", name: "Calm", isAdmin: false, tokens: [haStyleToken("calm")] };

describe("one caller cannot lock others out of /mcp", () => {
  let sim: Simulator;
  let stack: Stack;
  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse(), users: [NOISY, CALM] });
    stack = await startStack({ sim });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it("500 connect/close cycles by one user leave a second user unaffected", async () => {
    const calm = await stack.connect(haStyleToken("calm"));
    let calmCalls = 0;
    for (let i = 1; i <= 500; i++) {
      // The SDK's close() sends no DELETE: every cycle leaves a session behind on the server.
      const noisy = await connectClient(stack.mcpUrl, haStyleToken("noisy"));
      await noisy.close();
      if (i % 50 === 0) {
        const reply = await callTool(calm, "ha_agent_state_query", { area: "kitchen", limit: 1 });
        expect(reply.isError).toBe(false);
        // A new session for the calm user is never refused either.
        const fresh = await connectClient(stack.mcpUrl, haStyleToken("calm"));
        expect((await callTool(fresh, "ha_agent_index_search", { query: "kitchen light", limit: 1 })).isError).toBe(false);
        await fresh.close();
        calmCalls += 2;
      }
    }
    expect(calmCalls).toBe(20);
    expect((await callTool(calm, "ha_agent_state_query", { area: "kitchen", limit: 1 })).isError).toBe(false);
  }, 120_000);
});
