import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LegacyCreateTaskResultSchema, LegacyListTasksResultSchema, LegacyTaskSchema, ModernCreateTaskResultSchema, ModernDetailedTaskSchema, type ModernDetailedTask } from "../../src/mcp/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { haStyleToken } from "@ha-agent/ha-simulator";
import { connectLegacyClient } from "../support/mcp-legacy.js";
import { DECLARES_TASKS, legacyRequest, modernRequest, type RpcAnswer } from "../support/mcp-raw.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaTasksKey0000000000000000000000000000";
const RETENTION_HOURS = 6;

/** A model that echoes the question, and takes 20 s for anything "slow". */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const lastUser = [...(body.contents ?? [])].reverse().find((c) => c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string"));
  const text = String((lastUser?.parts ?? []).find((p) => typeof p.text === "string")?.text ?? "");
  if (text.includes("slow")) return { text: "late", delayMs: 20_000 };
  if (text.includes("steady")) return { text: `Steadily: ${text}`, delayMs: 300 };
  return { text: `You said: ${text}` };
}

/** A result without the `_meta` the SDK adds to every 2026 answer: an empty acknowledgement is then `{ resultType }` alone. */
const withoutMeta = (value: Record<string, unknown> | undefined) => {
  const { _meta: _m, ...rest } = value ?? {};
  return rest;
};

/** The parts of a turn's answer that do not name the turn itself. */
const withoutIds = (value: Record<string, unknown> | undefined) => {
  const { continuation_id: _c, session_id: _s, ...rest } = value ?? {};
  return rest;
};

describe("agent turns as MCP tasks", () => {
  let gemini: FakeGemini;
  let stack: Stack;
  const otherToken = haStyleToken("another-person");

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, CONTINUATION_RETENTION_HOURS: String(RETENTION_HOURS) } });
    stack.sim.users.add({ id: "another-person", name: "Another Person", isAdmin: false, tokens: [otherToken] });
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  const modern = <R = Record<string, unknown>>(args: { method: string; params?: Record<string, unknown>; name?: string; tasks?: boolean; token?: string }) =>
    modernRequest<R>({ url: stack.mcpUrl, token: args.token ?? stack.token, method: args.method, ...(args.params ? { params: args.params } : {}), ...(args.name ? { name: args.name } : {}), ...(args.tasks ? { capabilities: DECLARES_TASKS } : {}) });
  const callTool = (args: { tool: string; arguments: Record<string, unknown>; tasks?: boolean; token?: string }) =>
    modern({ method: "tools/call", params: { name: args.tool, arguments: args.arguments }, name: args.tool, ...(args.tasks ? { tasks: true } : {}), ...(args.token ? { token: args.token } : {}) });
  const getTask = (taskId: string, token?: string) => modern<ModernDetailedTask>({ method: "tasks/get", params: { taskId }, name: taskId, tasks: true, ...(token ? { token } : {}) });
  const cancelTask = (taskId: string, token?: string) => modern({ method: "tasks/cancel", params: { taskId }, name: taskId, tasks: true, ...(token ? { token } : {}) });
  const updateTask = (taskId: string, token?: string) => modern({ method: "tasks/update", params: { taskId, inputResponses: { a: { action: "accept" } } }, name: taskId, tasks: true, ...(token ? { token } : {}) });

  /** Polls tasks/get until the task leaves `working`. */
  async function settle(taskId: string): Promise<ModernDetailedTask> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const got = await getTask(taskId);
      expect(got.error, JSON.stringify(got.error)).toBeUndefined();
      const task = ModernDetailedTaskSchema.parse(got.result);
      if (task.status !== "working") return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} still working after 15 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("advertises the tasks extension in server/discover, and the 2025 tasks capability in initialize", async () => {
    const discover = await modern({ method: "server/discover" });
    expect((discover.result?.capabilities as Record<string, unknown>).extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    const init = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    expect((init.result?.capabilities as Record<string, unknown>).tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const listed = await legacyRequest<{ tools: { name: string; execution?: unknown }[] }>({ url: stack.mcpUrl, token: stack.token, method: "tools/list" });
    const taskTools = listed.result!.tools.filter((t) => t.execution !== undefined);
    expect(taskTools.map((t) => [t.name, t.execution])).toEqual([
      ["ha_agent_send_message", { taskSupport: "optional" }],
      ["ha_agent_ask", { taskSupport: "optional" }],
    ]);
  });

  it("answers ask with a task when a 2026 client declares tasks; tasks/get ends completed with exactly the synchronous answer", async () => {
    const sync = await callTool({ tool: "ha_agent_ask", arguments: { message: "Which lights are on?" } });
    expect(sync.result?.structuredContent).toMatchObject({ status: "completed" });

    const created = await callTool({ tool: "ha_agent_ask", arguments: { message: "Which lights are on?" }, tasks: true });
    const task = ModernCreateTaskResultSchema.parse(created.result);
    expect(task).toMatchObject({ resultType: "task", status: "working", ttlMs: RETENTION_HOURS * 3_600_000, pollIntervalMs: expect.any(Number) });
    expect(task.pollIntervalMs).toBeGreaterThanOrEqual(1_000);
    expect(task.pollIntervalMs).toBeLessThanOrEqual(2_000);
    // The task is the continuation: it exists as soon as the answer arrives.
    expect((await getTask(task.taskId)).result).toMatchObject({ taskId: task.taskId });

    const done = await settle(task.taskId);
    expect(done.status).toBe("completed");
    const result = (done as Extract<ModernDetailedTask, { status: "completed" }>).result;
    expect(result.structuredContent).toMatchObject({ continuation_id: task.taskId, status: "completed", response: { final_message: "You said: Which lights are on?" } });
    expect(withoutIds(result.structuredContent)).toEqual(withoutIds(sync.result?.structuredContent as Record<string, unknown>));
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it("runs send_message as a task that ends with the turn's outcome, as await_continuation gives it", async () => {
    const session = await callTool({ tool: "ha_agent_start_session", arguments: {} });
    const sessionId = (session.result?.structuredContent as { session_id: string }).session_id;
    const created = await callTool({ tool: "ha_agent_send_message", arguments: { session_id: sessionId, message: "hello there" }, tasks: true });
    const task = ModernCreateTaskResultSchema.parse(created.result);
    const done = await settle(task.taskId);
    expect(done).toMatchObject({ status: "completed", result: { structuredContent: { continuation_id: task.taskId, session_id: sessionId, status: "completed", response: { final_message: "You said: hello there" } } } });
    const awaited = await callTool({ tool: "ha_agent_await_continuation", arguments: { continuation_id: task.taskId } });
    expect((done as Extract<ModernDetailedTask, { status: "completed" }>).result.structuredContent).toEqual(awaited.result?.structuredContent);
  });

  it("gives a client that does not declare tasks today's results, unchanged", async () => {
    const asked = await callTool({ tool: "ha_agent_ask", arguments: { message: "plain question" } });
    expect(asked.result).toMatchObject({ resultType: "complete", structuredContent: { status: "completed", response: { final_message: "You said: plain question" } } });
    const session = await callTool({ tool: "ha_agent_start_session", arguments: {} });
    const sessionId = (session.result?.structuredContent as { session_id: string }).session_id;
    const sent = await callTool({ tool: "ha_agent_send_message", arguments: { session_id: sessionId, message: "plain message" } });
    const value = sent.result?.structuredContent as Record<string, unknown>;
    // The session's event stream is named on every send, so a client can watch the turn it started.
    expect(Object.keys(value)).toEqual(["continuation_id", "acknowledged", "status", "stream_url"]);
    expect(value).toMatchObject({ acknowledged: true, status: "pending" });
    expect((sent.result?.content as { text: string }[])[0]!.text).toBe(JSON.stringify(value));
    // A 2025 call without params.task is answered at once too.
    const legacy = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "plain question" } } });
    expect(legacy.result).toMatchObject({ structuredContent: { status: "completed" } });
    expect(legacy.result?.task).toBeUndefined();
  });

  it("serves the same tasks to a 2025-11-25 client: params.task, tasks/get, tasks/result, and tasks/list of the caller's own tasks", async () => {
    const { client } = await connectLegacyClient(stack.mcpUrl, stack.token);
    try {
      await client.listTools();
      const messages: { type: string; task?: unknown; result?: unknown }[] = [];
      for await (const m of client.experimental.tasks.callToolStream({ name: "ha_agent_ask", arguments: { message: "a 2025 question" } }, CallToolResultSchema, { task: { ttl: 60_000 } })) messages.push(m);
      expect(messages[0]?.type).toBe("taskCreated");
      const created = LegacyTaskSchema.parse(messages[0]!.task);
      expect(created).toMatchObject({ status: "working", ttl: RETENTION_HOURS * 3_600_000 });
      const last = messages.at(-1)!;
      expect(last.type).toBe("result");
      expect((last.result as { structuredContent: unknown }).structuredContent).toMatchObject({ continuation_id: created.taskId, status: "completed", response: { final_message: "You said: a 2025 question" } });

      const raw = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "another 2025 question" }, task: { ttl: 60_000 } } });
      const { task } = LegacyCreateTaskResultSchema.parse(raw.result);
      const result = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/result", params: { taskId: task.taskId } });
      expect(result.result).toMatchObject({ structuredContent: { status: "completed", response: { final_message: "You said: another 2025 question" } }, _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } } });
      expect(LegacyTaskSchema.parse(await client.experimental.tasks.getTask(task.taskId))).toMatchObject({ taskId: task.taskId, status: "completed" });

      // The other person's task never shows in this caller's list, and this caller's show in pages.
      const theirs = ModernCreateTaskResultSchema.parse((await callTool({ tool: "ha_agent_ask", arguments: { message: "theirs" }, tasks: true, token: otherToken })).result);
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = LegacyListTasksResultSchema.parse(await client.experimental.tasks.listTasks(cursor));
        ids.push(...page.tasks.map((t) => t.taskId));
        cursor = page.nextCursor;
      } while (cursor);
      expect(ids).toContain(created.taskId);
      expect(ids).toContain(task.taskId);
      expect(ids).not.toContain(theirs.taskId);
      expect(new Set(ids).size).toBe(ids.length);
      const theirList = LegacyListTasksResultSchema.parse((await legacyRequest({ url: stack.mcpUrl, token: otherToken, method: "tasks/list" })).result);
      expect(theirList.tasks.map((t) => t.taskId)).toEqual([theirs.taskId]);
    } finally {
      await client.close();
    }
  });

  it("tells a 2025 client waiting on tasks/result how its task goes, on that request's stream", async () => {
    const raw = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "steady question" }, task: {} } });
    const { task } = LegacyCreateTaskResultSchema.parse(raw.result);
    const result = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/result", params: { taskId: task.taskId, _meta: { progressToken: "p-1" } } });
    expect(result.result).toMatchObject({ structuredContent: { status: "completed", response: { final_message: "Steadily: steady question" } } });
    const statuses = result.notifications.filter((n) => n.method === "notifications/tasks/status").map((n) => LegacyTaskSchema.parse(n.params));
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status).toMatchObject({ taskId: task.taskId, status: "working", statusMessage: expect.any(String) });
    const progress = result.notifications.filter((n) => n.method === "notifications/progress");
    expect(progress.map((n) => n.params.progressToken)).toContain("p-1");
  });

  it("cancels a task within a second in either era, and it stays cancelled", async () => {
    const created = ModernCreateTaskResultSchema.parse((await callTool({ tool: "ha_agent_ask", arguments: { message: "slow one" }, tasks: true })).result);
    expect((await getTask(created.taskId)).result).toMatchObject({ status: "working" });
    const t = Date.now();
    const ack = await cancelTask(created.taskId);
    expect(Date.now() - t).toBeLessThan(1_000);
    expect(ack.error).toBeUndefined();
    expect((await getTask(created.taskId)).result).toMatchObject({ status: "cancelled" });

    const legacy = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "slow two" }, task: {} } });
    const { task } = LegacyCreateTaskResultSchema.parse(legacy.result);
    const t2 = Date.now();
    const cancelled = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/cancel", params: { taskId: task.taskId } });
    expect(Date.now() - t2).toBeLessThan(1_000);
    expect(LegacyTaskSchema.parse(cancelled.result).status).toBe("cancelled");

    // Still cancelled later, and a second cancel answers the same.
    await new Promise((r) => setTimeout(r, 300));
    expect((await getTask(created.taskId)).result).toMatchObject({ status: "cancelled" });
    const again = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/cancel", params: { taskId: task.taskId } });
    expect(LegacyTaskSchema.parse(again.result).status).toBe("cancelled");
    const result = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/result", params: { taskId: task.taskId } });
    expect(result.result).toMatchObject({ structuredContent: { status: "cancelled" } });
  });

  it("shows a task to no one but its owner: another principal gets the error of an id that never existed", async () => {
    const mine = ModernCreateTaskResultSchema.parse((await callTool({ tool: "ha_agent_ask", arguments: { message: "slow and private" }, tasks: true })).result);
    const never = "01JD00000000000000000000ZZ";
    const sameAsNever = (theirs: RpcAnswer, unknown: RpcAnswer) => {
      expect(theirs.error).toBeDefined();
      expect(theirs.status).toBe(unknown.status);
      expect(theirs.error).toEqual({ ...unknown.error, message: unknown.error!.message.replace(never, mine.taskId) });
      expect(theirs.result).toBeUndefined();
    };
    sameAsNever(await getTask(mine.taskId, otherToken), await getTask(never, otherToken));
    sameAsNever(await updateTask(mine.taskId, otherToken), await updateTask(never, otherToken));
    // tasks/cancel too: the 2026 answer tells nothing about other callers' ids, and the task is untouched.
    sameAsNever(await cancelTask(mine.taskId, otherToken), await cancelTask(never, otherToken));
    expect((await cancelTask(never, otherToken)).error?.code).toBe(-32602);
    const legacy = (method: string, taskId: string) => legacyRequest({ url: stack.mcpUrl, token: otherToken, method, params: { taskId } });
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) sameAsNever(await legacy(method, mine.taskId), await legacy(method, never));
    expect((await getTask(mine.taskId)).result).toMatchObject({ status: "working" });
    await cancelTask(mine.taskId);
  });

  it("answers -32602 for an unknown task id on tasks/get, tasks/update and tasks/cancel of 2026", async () => {
    const never = "01JD00000000000000000000YY";
    for (const answer of [await getTask(never), await updateTask(never), await cancelTask(never)]) {
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain(never);
      expect(answer.result).toBeUndefined();
    }
  });

  it("refuses tasks/get, tasks/update and tasks/cancel with -32021 to a 2026 client that does not declare the extension", async () => {
    const created = ModernCreateTaskResultSchema.parse((await callTool({ tool: "ha_agent_ask", arguments: { message: "slow undeclared" }, tasks: true })).result);
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const answer = await modern({ method, params: { taskId: created.taskId }, name: created.taskId });
      expect(answer.error, method).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } } });
      expect(answer.error?.message).toContain("io.modelcontextprotocol/tasks");
    }
    // Nothing was cancelled by the refused request.
    expect((await getTask(created.taskId)).result).toMatchObject({ status: "working" });
    await cancelTask(created.taskId);
  });

  it("acknowledges tasks/update with an empty result, ignoring responses to requests that are not outstanding", async () => {
    const created = ModernCreateTaskResultSchema.parse((await callTool({ tool: "ha_agent_ask", arguments: { message: "quick" }, tasks: true })).result);
    const done = await settle(created.taskId);
    const update = await updateTask(created.taskId);
    expect(update.error).toBeUndefined();
    expect(withoutMeta(update.result)).toEqual({ resultType: "complete" });
    expect((await getTask(created.taskId)).result).toMatchObject({ status: done.status });
  });

  it("acknowledges a 2026 cancel of a task that already finished, and leaves its outcome", async () => {
    const created = ModernCreateTaskResultSchema.parse((await callTool({ tool: "ha_agent_ask", arguments: { message: "quick to finish" }, tasks: true })).result);
    expect((await settle(created.taskId)).status).toBe("completed");
    const ack = await cancelTask(created.taskId);
    expect(ack.error).toBeUndefined();
    expect(withoutMeta(ack.result)).toEqual({ resultType: "complete" });
    expect((await getTask(created.taskId)).result).toMatchObject({ status: "completed" });
  });

  it("keeps the refusals of the tool itself: bad arguments are the tool's error result, not a task", async () => {
    const bad = await callTool({ tool: "ha_agent_ask", arguments: { message: "" }, tasks: true });
    expect(bad.result).toMatchObject({ isError: true });
    expect((bad.result?.content as { text: string }[])[0]!.text).toMatch(/^message: .*\(invalid_argument\)$/);
  });
});
