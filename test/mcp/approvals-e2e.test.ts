import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModernCreateTaskResultSchema, ModernDetailedTaskSchema, type ModernDetailedTask } from "../../src/mcp/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { callTool, waitUntil } from "../support/mcp.js";
import { DECLARES_ELICITATION, DECLARES_TASKS, legacyRequest, modernRequest, openListen } from "../support/mcp-raw.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaApprovalsKey00000000000000000000000";
const LIGHT = "light.kitchen_ceiling";

/** Turns the kitchen light on when asked to, then says what came back: a denial is a value the model reads. */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const contents = body.contents ?? [];
  const response = contents.at(-1)?.parts?.find((p) => p.functionResponse)?.functionResponse as { response?: unknown } | undefined;
  if (response) return { text: `The light call came back: ${JSON.stringify(response.response)}` };
  return { calls: [{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: LIGHT } }] };
}

describe("a person approves the agent's action from an MCP client", () => {
  let gemini: FakeGemini;
  let stack: Stack;
  /** Service calls the simulated Home Assistant received, as it remembers them. */
  const lightCalls = () => [...stack.sim.home.serviceCalls.values()].filter((c) => c.domain === "light" && c.service === "turn_on").length;

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, ALLOW_ACTUATION: "true" } });
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  const modern = (args: { method: string; params: Record<string, unknown>; name: string }) =>
    modernRequest({ url: stack.mcpUrl, token: stack.token, method: args.method, params: args.params, name: args.name, capabilities: DECLARES_TASKS });
  const askingSession = async () => (await callTool(stack.client, "ha_agent_start_session", { policy: { approval: "ask" } })).value.session_id as string;
  const taskUntil = (taskId: string, accept: (task: ModernDetailedTask) => boolean) =>
    waitUntil(async () => ModernDetailedTaskSchema.parse((await modern({ method: "tasks/get", params: { taskId }, name: taskId })).result), accept, 15_000);

  /** Awaits the turn until it is no longer running: the approval's event can come a moment before the turn shows input_required. */
  const awaitSettled = (client: Parameters<typeof callTool>[0], continuationId: unknown) =>
    waitUntil(() => callTool(client, "ha_agent_await_continuation", { continuation_id: continuationId, timeout_ms: 15_000 }), (r) => r.isError || r.value.status !== "running", 15_000);

  async function waitingTask() {
    stack.sim.home.setState(LIGHT, "off");
    const sessionId = await askingSession();
    const created = await modern({ method: "tools/call", params: { name: "ha_agent_send_message", arguments: { session_id: sessionId, message: "turn on the kitchen light" } }, name: "ha_agent_send_message" });
    const { taskId } = ModernCreateTaskResultSchema.parse(created.result);
    const waiting = await taskUntil(taskId, (t) => t.status !== "working");
    expect(waiting.status, JSON.stringify(waiting)).toBe("input_required");
    const keys = Object.keys((waiting as Extract<ModernDetailedTask, { status: "input_required" }>).inputRequests);
    expect(keys).toHaveLength(1);
    return { taskId, approvalId: keys[0]! };
  }

  it("runs the call exactly once after tasks/update approves it", async () => {
    const before = lightCalls();
    const { taskId, approvalId } = await waitingTask();
    expect(lightCalls()).toBe(before);
    const listen = await openListen({ url: stack.mcpUrl, token: stack.token, notifications: { taskIds: [taskId] }, capabilities: DECLARES_TASKS });
    try {
      await listen.waitFor((m) => m.method === "notifications/tasks" && (m.params as { status: string }).status === "input_required");
      const ack = await modern({ method: "tasks/update", params: { taskId, inputResponses: { [approvalId]: { action: "accept", content: { approve: true } } } }, name: taskId });
      expect(ack.error).toBeUndefined();
      // The status changes are pushed: back to work once answered, then done.
      await listen.waitFor((m) => m.method === "notifications/tasks" && (m.params as { status: string }).status === "completed");
      const pushed = listen.messages.filter((m) => m.method === "notifications/tasks").map((m) => (m.params as { status: string }).status);
      expect(pushed[0]).toBe("input_required");
      expect(pushed.at(-1)).toBe("completed");
    } finally {
      listen.close();
      await listen.ended;
    }
    const done = await taskUntil(taskId, (t) => t.status === "completed" || t.status === "failed");
    expect(done.status).toBe("completed");
    expect(lightCalls()).toBe(before + 1);
    expect(stack.sim.home.getState(LIGHT)?.state).toBe("on");
  });

  it("runs nothing after tasks/update denies it, and the answer explains the denial", async () => {
    const before = lightCalls();
    const { taskId, approvalId } = await waitingTask();
    await modern({ method: "tasks/update", params: { taskId, inputResponses: { [approvalId]: { action: "decline" } } }, name: taskId });
    const done = await taskUntil(taskId, (t) => t.status === "completed" || t.status === "failed");
    expect(done).toMatchObject({ status: "completed", result: { structuredContent: { response: { final_message: expect.stringContaining("denied light.turn_on") } } } });
    expect(lightCalls()).toBe(before);
    expect(stack.sim.home.getState(LIGHT)?.state).toBe("off");
  });

  it("shows a 2025 task as input_required with the question, and its tasks/result answers once ha_agent_approve approves", async () => {
    stack.sim.home.setState(LIGHT, "off");
    const before = lightCalls();
    const sessionId = await askingSession();
    const legacy = (method: string, params: Record<string, unknown>) => legacyRequest({ url: stack.mcpUrl, token: stack.token, method, params });
    const created = await legacy("tools/call", { name: "ha_agent_send_message", arguments: { session_id: sessionId, message: "turn on the kitchen light" }, task: { ttl: 60_000 } });
    const { taskId } = (created.result as { task: { taskId: string } }).task;
    const waiting = await waitUntil(async () => (await legacy("tasks/get", { taskId })).result as { status: string; statusMessage?: string }, (t) => t.status !== "working", 15_000);
    expect(waiting.status).toBe("input_required");
    expect(waiting.statusMessage).toContain("Approve light.turn_on on light.");
    const approvalId = /approval_id (\S+) /.exec(waiting.statusMessage ?? "")?.[1];
    const result = legacy("tasks/result", { taskId });
    const approved = await callTool(stack.client, "ha_agent_approve", { continuation_id: taskId, approval_id: approvalId, decision: "approve" });
    expect(approved.isError, approved.text).toBe(false);
    expect((await result).result).toMatchObject({ structuredContent: { status: "completed" } });
    expect(lightCalls()).toBe(before + 1);
  });

  it("lets a v2 client with an elicitation handler approve inside await_continuation, and the call runs once", async () => {
    stack.sim.home.setState(LIGHT, "off");
    const before = lightCalls();
    const asked: string[] = [];
    const client = new Client({ name: "approver", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: DECLARES_ELICITATION });
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { approve: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${stack.token}` } } }));
    try {
      const sessionId = await askingSession();
      const sent = await callTool(client, "ha_agent_send_message", { session_id: sessionId, message: "turn on the kitchen light" });
      const answered = await awaitSettled(client, sent.value.continuation_id);
      expect(answered.value).toMatchObject({ status: "completed", response: { final_message: expect.stringContaining("The light call came back") } });
      expect(asked).toEqual([expect.stringContaining(`light.turn_on`)]);
      expect(lightCalls()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it("lets ha_agent_ask with approval ask act after a yes given inside the one call", async () => {
    stack.sim.home.setState(LIGHT, "off");
    const before = lightCalls();
    const client = new Client({ name: "approver", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: DECLARES_ELICITATION });
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => {
      asked += 1;
      return { action: "accept", content: { approve: true, reason: "go ahead" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${stack.token}` } } }));
    try {
      const answered = await callTool(client, "ha_agent_ask", { message: "turn on the kitchen light", approval: "ask", timeout_ms: 15_000 });
      expect(answered.value).toMatchObject({ status: "completed", response: { final_message: expect.stringContaining("The light call came back") } });
      expect(asked).toBe(1);
      expect(lightCalls()).toBe(before + 1);
      // Without approval "ask" the question is read-only, as before: the agent has no call_service, nothing is asked and nothing runs.
      const readOnly = await callTool(client, "ha_agent_ask", { message: "turn on the kitchen light", timeout_ms: 15_000 });
      expect(readOnly.value).toMatchObject({ status: "completed", response: { final_message: expect.stringContaining("unknown_tool") } });
      expect(asked).toBe(1);
      expect(lightCalls()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it("gives a client without elicitation the plain result, with the approval and next: approve", async () => {
    stack.sim.home.setState(LIGHT, "off");
    const sessionId = await askingSession();
    const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "turn on the kitchen light" });
    const waiting = await awaitSettled(stack.client, sent.value.continuation_id);
    expect(waiting.value).toMatchObject({ status: "input_required", next: "approve", approval: { service: "light.turn_on", targets: [LIGHT] } });
    // A 2025 client (the stateless path cannot carry an elicitation) gets the same.
    const legacy = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tools/call", params: { name: "ha_agent_await_continuation", arguments: { continuation_id: sent.value.continuation_id } } });
    expect(legacy.result).toMatchObject({ structuredContent: { status: "input_required", next: "approve" } });
    await callTool(stack.client, "ha_agent_cancel", { continuation_id: sent.value.continuation_id });
  });
});
