import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LegacyCreateTaskResultSchema, LegacyTaskSchema, ModernCreateTaskResultSchema } from "../../src/mcp/index.js";
import { APPROVAL_FORM } from "../../src/tools/index.js";
import { DECLARES_TASKS, legacyRequest, modernRequest, openListen } from "../support/mcp-raw.js";
import { APPROVAL_ID, startApprovalEndpoint } from "./approval-fakes.js";

describe("approvals of a turn run as a task", () => {
  let server: Awaited<ReturnType<typeof startApprovalEndpoint>>;
  beforeAll(async () => {
    server = await startApprovalEndpoint();
  });
  afterAll(async () => {
    await server?.close();
  });

  const modern = (args: { method: string; params: Record<string, unknown>; name: string; token?: string }) =>
    modernRequest({ url: server.mcpUrl, token: args.token ?? "alice", method: args.method, params: args.params, name: args.name, capabilities: DECLARES_TASKS });

  it("pushes input_required with the form on the listen stream, and completed once tasks/update approves", async () => {
    const created = await modern({ method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" } }, name: "ha_agent_ask" });
    const { taskId } = ModernCreateTaskResultSchema.parse(created.result);
    const listen = await openListen({ url: server.mcpUrl, token: "alice", notifications: { taskIds: [taskId] }, capabilities: DECLARES_TASKS });
    try {
      const waiting = await listen.waitFor((m) => m.method === "notifications/tasks" && (m.params as { status: string }).status === "input_required");
      expect(waiting.params).toMatchObject({ taskId, inputRequests: { [APPROVAL_ID]: { method: "elicitation/create", params: { mode: "form", requestedSchema: APPROVAL_FORM } } } });
      const got = await modern({ method: "tasks/get", params: { taskId }, name: taskId });
      expect(got.result).toMatchObject({ status: "input_required", inputRequests: (waiting.params as { inputRequests: unknown }).inputRequests });

      // Another caller cannot answer it, and learns nothing of it.
      const foreign = await modern({ method: "tasks/update", params: { taskId, inputResponses: { [APPROVAL_ID]: { action: "accept", content: { approve: true } } } }, name: taskId, token: "bob" });
      expect(foreign.error).toMatchObject({ code: -32602 });
      expect(server.agent.approvals).toEqual([]);

      const ack = await modern({ method: "tasks/update", params: { taskId, inputResponses: { [APPROVAL_ID]: { action: "accept", content: { approve: true } } } }, name: taskId });
      expect(ack.error).toBeUndefined();
      // Acknowledged once the decision is journaled.
      expect(server.agent.approvals).toEqual([{ principal: "alice", continuationId: taskId, approvalId: APPROVAL_ID, decision: "approve", via: "task" }]);
      const done = await listen.waitFor((m) => m.method === "notifications/tasks" && (m.params as { status: string }).status === "completed");
      expect(done.params).toMatchObject({ result: { structuredContent: { response: { final_message: "Done: the kitchen light is on." } } } });
    } finally {
      listen.close();
      await listen.ended;
    }
  });

  it("shows a 2025 task as input_required, with the question and ha_agent_approve in its status message", async () => {
    const created = await legacyRequest({ url: server.mcpUrl, token: "alice", method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, task: { ttl: 60_000 } } });
    const { task } = LegacyCreateTaskResultSchema.parse(created.result);
    const got = LegacyTaskSchema.parse((await legacyRequest({ url: server.mcpUrl, token: "alice", method: "tasks/get", params: { taskId: task.taskId } })).result);
    expect(got.status).toBe("input_required");
    expect(got.statusMessage).toContain("Approve light.turn_on on light.");
    expect(got.statusMessage).toContain(`call ha_agent_approve with continuation_id ${task.taskId}, approval_id ${APPROVAL_ID}`);
  });
});
