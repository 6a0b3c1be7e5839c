import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/models/index.js";
import { startFakeGemini, type FakeGemini, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { callTool } from "../support/mcp.js";
import { connectClient, startStack, type Stack } from "../support/stack.js";

/** What a model reads of a tool: HA's LLM integrations pass on the name, the description and the input schema. */
const definitionTokens = (tools: { name: string; description?: string; inputSchema: unknown }[]) =>
  tools.reduce((sum, t) => sum + estimateTokens(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })), 0);

const KEY = "assist-test-key";

/** A model that answers at once, or after 9 s when asked something "slow": longer than one Assist call may take. */
function responder(body: GeminiRequestBody) {
  const lastUser = [...(body.contents ?? [])].reverse().find((c) => c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string"));
  const text = String((lastUser?.parts ?? []).find((p) => typeof p.text === "string")?.text ?? "");
  return text.includes("slow") ? { text: "It took a while: the kitchen light is on.", delayMs: 9_000 } : { text: `You said: ${text}` };
}

describe("/mcp/assist, the tool set Home Assistant's conversation agents see", () => {
  let stack: Stack;
  let gemini: FakeGemini;
  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  it("offers at most 8 tools in at most 2,000 tokens of definitions, while /mcp keeps every tool", async () => {
    const assist = await connectClient(`${stack.mcpUrl}/assist`, stack.token, "auto");
    try {
      const { tools, nextCursor } = await assist.listTools();
      expect(nextCursor).toBeUndefined();
      expect(tools.map((t) => t.name).sort()).toEqual(
        ["ha_agent_ask", "ha_agent_automation_inspect", "ha_agent_await_continuation", "ha_agent_energy", "ha_agent_history", "ha_agent_index_search", "ha_agent_state_query"].sort(),
      );
      expect(definitionTokens(tools)).toBeLessThanOrEqual(2_000);
      const all = (await stack.client.listTools()).tools;
      expect(all.length).toBeGreaterThan(20);
      expect(all.map((t) => t.name)).toEqual(expect.arrayContaining(tools.map((t) => t.name)));
    } finally {
      await assist.close();
    }
  });

  it("answers what Assist users ask: search, state, history, energy and the agent", async () => {
    const assist = await connectClient(`${stack.mcpUrl}/assist`, stack.token, "auto");
    const answered = async (name: string, args: Record<string, unknown>) => {
      const reply = await callTool(assist, name, args);
      expect(reply.isError, `${name}: ${reply.text}`).toBe(false);
      return reply;
    };
    try {
      const found = await callTool(assist, "ha_agent_index_search", { query: "kitchen light" });
      expect(found.isError).toBeFalsy();
      const first = (found.value as { results: { entity_id: string }[] }).results[0]!.entity_id;
      await answered("ha_agent_state_query", { entity_ids: [first] });
      await answered("ha_agent_history", { entity_ids: [first], start: "-6h" });
      await answered("ha_agent_energy", { start: "yesterday", period: "day" });
      const asked = await answered("ha_agent_ask", { message: "Is the kitchen light on?" });
      expect(asked.value).toMatchObject({ continuation_id: expect.any(String) });
      // Parameters only /mcp offers are not taken here.
      const wider = await callTool(assist, "ha_agent_index_search", { query: "kitchen", near_area: "kitchen" });
      expect(wider.isError, wider.text).toBe(false);
    } finally {
      await assist.close();
    }
  });

  it("answers a slow question within Home Assistant's 10 s with what it has and how to follow up, and the follow-up gets the answer", async () => {
    const assist = await connectClient(`${stack.mcpUrl}/assist`, stack.token, "auto");
    try {
      const started = Date.now();
      const first = await callTool(assist, "ha_agent_ask", { message: "a slow question: is the kitchen light on?" });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(first.value).toMatchObject({ next: "await", continuation_id: expect.any(String) });
      let reply = first;
      for (let i = 0; i < 3 && reply.value.next === "await"; i++) {
        const asked = Date.now();
        reply = await callTool(assist, "ha_agent_await_continuation", { continuation_id: first.value.continuation_id });
        expect(Date.now() - asked).toBeLessThan(10_000);
      }
      expect(reply.value).toMatchObject({ status: "completed" });
      expect(reply.text).toContain("kitchen light is on");
    } finally {
      await assist.close();
    }
  }, 40_000);
});
