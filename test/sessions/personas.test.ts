import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaPersonaKey00000000000000000000000000";
const LIGHT = "light.kitchen_ceiling";

const toolNames = (body: GeminiRequestBody) => (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name).sort();
const system = (body: GeminiRequestBody) => (body.systemInstruction?.parts ?? []).map((p) => p.text ?? "").join("");
const userTexts = (body: GeminiRequestBody) => (body.contents ?? []).filter((c) => c.role === "user").flatMap((c) => c.parts ?? []).map((p) => String(p.text ?? ""));

describe("sessions with a persona, at the model's wire", () => {
  let gemini: FakeGemini;
  let stack: Stack;
  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder: (body) => ((body.tools ?? []).length ? { text: "Looked into it." } : { text: "Summary." }) });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  /** The model requests of one turn: those that offered tools. */
  const turnRequests = (from: number) => gemini.requests.slice(from).filter((r) => toolNames(r.body).length > 0);

  it("a session started with a persona sends its system prompt, its priming and only its tools (plus remember)", async () => {
    const started = await callTool(stack.client, "ha_agent_start_session", { persona: "troubleshooter", persona_args: { entity: LIGHT } });
    expect(started.isError, started.text).toBe(false);
    const sessionId = started.value.session_id as string;

    stack.sim.home.setState(LIGHT, "on");
    await waitForState("on");
    const before = gemini.requests.length;
    const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "Why does it flicker?" });
    const answer = await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: sent.value.continuation_id, timeout_ms: 20_000 });
    expect(answer.value.status, answer.text).toBe("completed");
    const [first] = turnRequests(before);
    expect(system(first!.body)).toContain("You are HA Agent's troubleshooter");
    expect(toolNames(first!.body)).toEqual(["analyze_errors", "automation_inspect", "diagnose_entity", "history", "index_search", "remember", "state_query", "trace"]);
    const texts = userTexts(first!.body);
    expect(texts.at(-1)).toBe("Why does it flicker?");
    // The priming ends the system text: a user message of its own before the question would break strict chat templates.
    expect(system(first!.body)).toMatch(/## For the user's next message\n[\s\S]*- state: on/);
    expect(texts.join("\n")).not.toContain("- state: on");

    // The next turn is primed anew, with the home as it is now.
    stack.sim.home.setState(LIGHT, "off");
    await waitForState("off");
    const again = gemini.requests.length;
    const next = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "And now?" });
    await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: next.value.continuation_id, timeout_ms: 20_000 });
    expect(system(turnRequests(again)[0]!.body)).toContain("- state: off");
  });

  it("ask takes a persona too, and the automation helper is never offered call_service, nor the save where no one is asked", async () => {
    const before = gemini.requests.length;
    const asked = await callTool(stack.client, "ha_agent_ask", { message: "Draft it", persona: "automation_helper", persona_args: { goal: "kitchen ceiling light on at sunset" } });
    expect(asked.value.status, asked.text).toBe("completed");
    const [first] = turnRequests(before);
    expect(system(first!.body)).toContain("automation helper");
    // render_template comes only through a persona that names it, as this one does.
    expect(toolNames(first!.body)).toEqual(["automation_check", "index_search", "remember", "render_template", "state_query"]);
  });

  it("refuses an unknown persona or a bad argument before anything starts", async () => {
    const unknown = await callTool(stack.client, "ha_agent_start_session", { persona: "plumber" });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.text).toMatch(/no persona "plumber"/);
    const bad = await callTool(stack.client, "ha_agent_ask", { message: "x", persona: "energy_analyst", persona_args: {} });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/period/);
  });

  it("ha_agent_update_session puts a session on a persona, and the next turn takes it on; an empty persona (or null) takes it off", async () => {
    const started = await callTool(stack.client, "ha_agent_start_session", {});
    const sessionId = started.value.session_id as string;
    const updated = await callTool(stack.client, "ha_agent_update_session", { session_id: sessionId, persona: "home_guide", pins: ["Answer in one sentence."] });
    expect(updated.value, updated.text).toMatchObject({ persona: { name: "home_guide", args: {} }, pins: ["Answer in one sentence."] });

    const before = gemini.requests.length;
    const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "What is on?" });
    await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: sent.value.continuation_id, timeout_ms: 20_000 });
    const [first] = turnRequests(before);
    expect(system(first!.body)).toContain("HA Agent's guide");
    expect(system(first!.body)).toContain("Answer in one sentence.");

    // "" is the published way to take it off; null, the older one, still works.
    const cleared = await callTool(stack.client, "ha_agent_update_session", { session_id: sessionId, persona: "" });
    expect(cleared.value, cleared.text).toMatchObject({ persona: null });
    // Google's model sends an open object as {json: text} (its _format_schema offers no other way).
    const wrapped = await callTool(stack.client, "ha_agent_update_session", { session_id: sessionId, persona: "troubleshooter", persona_args: { json: JSON.stringify({ entity: LIGHT }) } });
    expect(wrapped.value, wrapped.text).toMatchObject({ persona: { name: "troubleshooter", args: { entity: LIGHT } } });
    const nulled = await callTool(stack.client, "ha_agent_update_session", { session_id: sessionId, persona: null });
    expect(nulled.value).toMatchObject({ persona: null });
    const unknown = await callTool(stack.client, "ha_agent_update_session", { session_id: sessionId, persona: "plumber" });
    expect(unknown.isError).toBe(true);
    const again = gemini.requests.length;
    const next = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "And now?" });
    await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: next.value.continuation_id, timeout_ms: 20_000 });
    expect(system(turnRequests(again)[0]!.body)).not.toContain("HA Agent's guide");
  });

  async function waitForState(state: string) {
    for (let i = 0; i < 100 && stack.app.index.entity(LIGHT)?.state?.state !== state; i++) await new Promise((r) => setTimeout(r, 20));
  }
});
