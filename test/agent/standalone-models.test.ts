import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, startFakeOpenAiServer, type FakeChatRequest, type FakeReply } from "@ha-agent/model-fakes";
import { demoPlan } from "../../src/models/demo/planner.js";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

const GEMINI_KEY = "AIzaStandaloneKey000000000000000000000";

async function askKitchen(stack: Stack) {
  const sessionId = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
  const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "Which lights are on in the kitchen?" });
  expect(sent.isError, sent.text).toBe(false);
  return callTool(stack.client, "ha_agent_await_continuation", { continuation_id: sent.value.continuation_id, timeout_ms: 30_000 });
}

/** A small OpenAI-side planner: search, read, answer, in the OpenAI message format. */
function openAiPlanner(request: FakeChatRequest): FakeReply {
  const tools = request.messages.filter((m) => m.role === "tool");
  if (tools.length === 0) return { toolCalls: [{ name: "state_query", args: { area: "kitchen", domain: "light", state: "on" } }] };
  const entities = (JSON.parse(String(tools.at(-1)!.content)) as { entities: { entity_id: string }[] }).entities;
  return { text: `On in the kitchen: ${entities.map((e) => e.entity_id).join(", ")}.` };
}

describe("without a model configured", () => {
  it("keeps everything else working, reports the model on /healthz, and names the options to set", async () => {
    const stack = await startStack();
    try {
      const health = await fetch(`${stack.baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { components: { model: { details: { status: string } } } }).components.model.details.status).toBe("not configured");
      expect((await callTool(stack.client, "ha_agent_state_query", { area: "kitchen", limit: 1 })).isError).toBe(false);
      const sessionId = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
      const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "hi" });
      expect(sent.isError).toBe(true);
      expect(sent.text).toMatch(/no_model/);
      expect(sent.text).toMatch(/gemini_api_key/);
    } finally {
      await stack.close();
    }
  });
});

describe("the agent in standalone mode with a real provider's client", () => {
  let gemini: FakeGemini;
  let openai: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: GEMINI_KEY, responder: (body) => demoPlan(body) });
    openai = await startFakeOpenAiServer({ flavour: "llama-server", models: ["qwen3:8b"], responder: openAiPlanner });
  });
  afterAll(async () => {
    await gemini?.close();
    await openai?.close();
  });

  it("answers through @google/genai against the fake Gemini, which checks every thought signature", async () => {
    const stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url } });
    try {
      const done = await askKitchen(stack);
      expect(done.value).toMatchObject({ status: "completed" });
      expect((done.value.response as { final_message: string }).final_message).toContain("light.kitchen_worktop_lights");
      // The start-up check, then the turn's three calls; the last two carried the earlier turns with their signatures, and the fake accepted them.
      expect(gemini.requests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const calls = gemini.requests[3]!.body.contents!.filter((c) => c.role === "model").flatMap((c) => c.parts ?? []).filter((p) => p.functionCall);
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls.every((p) => typeof p.thoughtSignature === "string")).toBe(true);
    } finally {
      await stack.close();
    }
  });

  it("answers through the OpenAI-compatible client against the fake llama-server", async () => {
    const stack = await startStack({ env: { MODEL_PROVIDER: "openai", OPENAI_BASE_URL: openai.baseUrl, MODEL: "qwen3:8b" } });
    try {
      const done = await askKitchen(stack);
      expect(done.value).toMatchObject({ status: "completed" });
      const on = stack.sim.home.states().filter((s) => s.entity_id.startsWith("light.kitchen") && s.state === "on").map((s) => s.entity_id);
      for (const id of on) expect((done.value.response as { final_message: string }).final_message).toContain(id);
    } finally {
      await stack.close();
    }
  });
});
