import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaAgentMcpKey000000000000000000000000";

/** A scripted model that decides from the user's last message and how far the turn has got. */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const contents = body.contents ?? [];
  const lastUser = [...contents].reverse().find((c) => c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string"));
  const text = String((lastUser?.parts ?? []).find((p) => typeof p.text === "string")?.text ?? "");
  const answered = contents.at(-1)?.parts?.some((p) => p.functionResponse) === true;
  if (text.includes("slow")) return { text: "late", delayMs: 20_000 };
  if (text.startsWith("turn on")) return answered ? { text: "I tried." } : { calls: [{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: "light.kitchen_ceiling" } }] };
  return { text: `You said: ${text}` };
}

async function turn(stack: Stack, sessionId: string, message: string, extra: Record<string, unknown> = {}) {
  const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message, ...extra });
  return { sent, done: sent.isError ? undefined : await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: sent.value.continuation_id, timeout_ms: 15_000 }) };
}

describe("the agent through MCP", () => {
  let gemini: FakeGemini;
  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
  });
  afterAll(async () => {
    await gemini?.close();
  });
  const env = (more: Record<string, string> = {}) => ({ MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, ...more });

  describe("with actuation off (the default)", () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ env: env() });
      stack.sim.home.setState("light.kitchen_ceiling", "off");
    });
    afterAll(async () => {
      await stack?.close();
    });

    it("refuses actions, for MCP clients and for the agent, and nothing reaches Home Assistant", async () => {
      const direct = await callTool(stack.client, "ha_agent_call_service", { domain: "light", service: "turn_on", entity_id: "light.kitchen_ceiling" });
      expect(direct.isError).toBe(true);
      expect(direct.text).toMatch(/allow_actuation/);
      const session = (await callTool(stack.client, "ha_agent_start_session", { policy: { allow_actuation: true } })).value.session_id as string;
      const { done } = await turn(stack, session, "turn on the kitchen light");
      expect(done?.value).toMatchObject({ status: "completed" });
      expect(stack.sim.home.getState("light.kitchen_ceiling")?.state).toBe("off");
    });

    it("says busy while a turn is open, cancels it within a second, and keeps it cancelled", async () => {
      const session = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
      const slow = await callTool(stack.client, "ha_agent_send_message", { session_id: session, message: "slow please" });
      const busy = await callTool(stack.client, "ha_agent_send_message", { session_id: session, message: "and another" });
      expect(busy.isError).toBe(true);
      expect(busy.text).toContain("busy");
      expect(busy.text).toContain(slow.value.continuation_id as string);
      const t = Date.now();
      expect((await callTool(stack.client, "ha_agent_cancel", { continuation_id: slow.value.continuation_id })).value).toEqual({ status: "cancelled" });
      expect(Date.now() - t).toBeLessThan(1_000);
      expect((await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: slow.value.continuation_id, timeout_ms: 0 })).value).toMatchObject({ status: "cancelled" });
      // A cancel is idempotent: cancelling again answers the same.
      expect((await callTool(stack.client, "ha_agent_cancel", { continuation_id: slow.value.continuation_id })).value).toEqual({ status: "cancelled" });
    });

    it("says in start_session which provider and model the session's turns use", async () => {
      const started = await callTool(stack.client, "ha_agent_start_session", {});
      expect(started.value.model).toEqual({ provider: "gemini", name: expect.stringMatching(/^gemini-/) });
    });

    it("returns the first continuation for a repeated idempotency key, and answers ask in one call", async () => {
      const session = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
      const first = await turn(stack, session, "hello", { idempotency_key: "k-1" });
      const again = await callTool(stack.client, "ha_agent_send_message", { session_id: session, message: "hello", idempotency_key: "k-1" });
      expect(again.value).toMatchObject({ continuation_id: first.sent.value.continuation_id, acknowledged: false });
      const asked = await callTool(stack.client, "ha_agent_ask", { message: "hi there" });
      expect(asked.value).toMatchObject({ status: "completed", response: { final_message: "You said: hi there" } });
    });
  });

  describe("with actuation allowed for lights", () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ env: env({ ALLOW_ACTUATION: "true", ACTUATION_ALLOWLIST: "light.*" }) });
      stack.sim.home.setState("light.kitchen_ceiling", "off");
    });
    afterAll(async () => {
      await stack?.close();
    });

    it("turns the light on when the session allows it too, and refuses an unlisted service", async () => {
      const session = (await callTool(stack.client, "ha_agent_start_session", { policy: { allow_actuation: true } })).value.session_id as string;
      const { done } = await turn(stack, session, "turn on the kitchen light");
      expect(done?.value).toMatchObject({ status: "completed" });
      expect(stack.sim.home.getState("light.kitchen_ceiling")?.state).toBe("on");
      const unlisted = await callTool(stack.client, "ha_agent_call_service", { domain: "switch", service: "turn_on", entity_id: "switch.kitchen_extractor_fan" });
      expect(unlisted.isError).toBe(true);
      expect(unlisted.text).toMatch(/service_not_allowed/);
    });
  });
});
