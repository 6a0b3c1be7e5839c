import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModernCreateTaskResultSchema } from "../../src/mcp/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { haStyleToken } from "@ha-agent/ha-simulator";
import { DECLARES_TASKS, modernRequest, openListen } from "../support/mcp-raw.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaListenKey000000000000000000000000000";
const SUB = "io.modelcontextprotocol/subscriptionId";

/** A model that answers after 300 ms, or after 20 s for anything "slow". */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const text = JSON.stringify(body.contents ?? []);
  return text.includes("slow") ? { text: "late", delayMs: 20_000 } : { text: "Done steadily.", delayMs: 300 };
}

describe("task status pushed on subscriptions/listen", () => {
  let gemini: FakeGemini;
  let stack: Stack;
  const otherToken = haStyleToken("listen-other");

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url } });
    stack.sim.users.add({ id: "listen-other", name: "Listen Other", isAdmin: false, tokens: [otherToken] });
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  const startTask = async (message: string, token = stack.token) =>
    ModernCreateTaskResultSchema.parse(
      (await modernRequest({ url: stack.mcpUrl, token, method: "tools/call", params: { name: "ha_agent_ask", arguments: { message } }, name: "ha_agent_ask", capabilities: DECLARES_TASKS })).result,
    ).taskId;

  it("acknowledges only the caller's own task ids, then sends each status change until completed, with what tasks/get returns", async () => {
    const mine = await startTask("steady question");
    const theirs = await startTask("slow and theirs", otherToken);
    const listen = await openListen({ url: stack.mcpUrl, token: stack.token, notifications: { taskIds: [mine, theirs, "01JD00000000000000000000QQ"] }, capabilities: DECLARES_TASKS });
    try {
      expect(listen.status).toBe(200);
      const ack = await listen.waitFor((m) => m.method === "notifications/subscriptions/acknowledged");
      expect(ack.params).toEqual({ notifications: { taskIds: [mine] }, _meta: { [SUB]: listen.id } });
      const done = await listen.waitFor((m) => m.method === "notifications/tasks" && (m.params as { status: string }).status === "completed");
      const statuses = listen.messages.filter((m) => m.method === "notifications/tasks").map((m) => m.params as { taskId: string; status: string; _meta: unknown });
      expect(statuses.map((s) => s.status)).toEqual(["working", "completed"]);
      for (const s of statuses) expect(s).toMatchObject({ taskId: mine, _meta: { [SUB]: listen.id } });
      const got = await modernRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/get", params: { taskId: mine }, name: mine, capabilities: DECLARES_TASKS });
      const { _meta: _n, ...pushed } = done.params as Record<string, unknown>;
      const { _meta: _g, resultType: _r, ...polled } = got.result!;
      expect(pushed).toEqual(polled);
      expect(JSON.stringify(listen.messages)).not.toContain(theirs);
    } finally {
      listen.close();
      await listen.ended;
    }
    await modernRequest({ url: stack.mcpUrl, token: otherToken, method: "tasks/cancel", params: { taskId: theirs }, name: theirs, capabilities: DECLARES_TASKS });
  });

  it("ends the stream when the client disconnects", async () => {
    const slow = await startTask("slow to watch");
    const listen = await openListen({ url: stack.mcpUrl, token: stack.token, notifications: { taskIds: [slow] }, capabilities: DECLARES_TASKS });
    await listen.waitFor((m) => m.method === "notifications/tasks");
    listen.close();
    await listen.ended;
    await modernRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/cancel", params: { taskId: slow }, name: slow, capabilities: DECLARES_TASKS });
  });

  it("ends an open stream when the program stops, rather than holding the stop", async () => {
    const own = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url } });
    const slow = ModernCreateTaskResultSchema.parse(
      (await modernRequest({ url: own.mcpUrl, token: own.token, method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "slow until the stop" } }, name: "ha_agent_ask", capabilities: DECLARES_TASKS })).result,
    ).taskId;
    const listen = await openListen({ url: own.mcpUrl, token: own.token, notifications: { taskIds: [slow] }, capabilities: DECLARES_TASKS });
    await listen.waitFor((m) => m.method === "notifications/tasks");
    // The stop closes the listener and its connections first, as for the SDK's own listen streams.
    await own.close();
    await listen.ended;
    expect(listen.messages.filter((m) => m.method === "notifications/tasks")).toHaveLength(1);
  });

  it("refuses task ids with -32021 to a client that does not declare the tasks extension", async () => {
    const listen = await openListen({ url: stack.mcpUrl, token: stack.token, notifications: { taskIds: ["01JD00000000000000000000QQ"] } });
    await listen.ended;
    expect(listen.status).toBe(400);
    expect(listen.messages[0]).toMatchObject({ id: listen.id, error: { code: -32021, data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } } } });
  });

  it("leaves a listen without task ids to the SDK: nothing it can honour, so an empty ack and the listen result", async () => {
    const listen = await openListen({ url: stack.mcpUrl, token: stack.token, notifications: { toolsListChanged: true }, capabilities: DECLARES_TASKS });
    await listen.ended;
    expect(listen.messages[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: {}, _meta: { [SUB]: listen.id } } });
    expect(listen.messages[1]).toMatchObject({ id: listen.id, result: { resultType: "complete", _meta: { [SUB]: listen.id } } });
  });
});
