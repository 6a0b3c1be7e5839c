import { describe, expect, it } from "vitest";
import { APPROVAL_ID, createWaitingAgent } from "../../../test/mcp/approval-fakes.js";
import { HaAgentError, type Principal } from "../../shared/index.js";
import { APPROVAL_FORM, approvalQuestion, createAgentTasks } from "../../tools/index.js";
import { createTaskAdapter } from "./adapter.js";
import { legacyTask } from "./legacy.js";
import { modernTask } from "./modern.js";
import { LegacyTaskSchema, ModernDetailedTaskSchema } from "./wire.js";

const alice: Principal = { id: "alice", name: "Alice", kind: "user", isAdmin: false };
const bob: Principal = { id: "bob", name: "Bob", kind: "user", isAdmin: false };
const timing = { ttlMs: 86_400_000, pollIntervalMs: 1_000 };

async function waitingTask() {
  const agent = createWaitingAgent();
  const adapter = createTaskAdapter({ tasks: createAgentTasks({ agent }), timing });
  const { continuation } = await agent.ask(alice, { message: "Turn on the kitchen light" });
  return { agent, adapter, taskId: continuation.id, question: approvalQuestion(continuation.approval!) };
}

describe("a turn waiting for an approval, as a task", () => {
  it("is input_required with one form elicitation keyed by the approval id, holding the question and the approval form", async () => {
    const { adapter, taskId, question } = await waitingTask();
    const view = await adapter.get(alice, taskId);
    expect(view.state.status).toBe("input_required");
    expect(view.state.inputRequests).toEqual({ [APPROVAL_ID]: { method: "elicitation/create", params: { mode: "form", message: question, requestedSchema: APPROVAL_FORM } } });
    const modern = ModernDetailedTaskSchema.parse(modernTask(view, timing));
    expect(modern).toMatchObject({ status: "input_required", inputRequests: { [APPROVAL_ID]: { method: "elicitation/create" } } });
    expect(question).toContain("light.turn_on");
  });

  it("tells a 2025 client the question and to answer with ha_agent_approve", async () => {
    const { adapter, taskId, question } = await waitingTask();
    const legacy = LegacyTaskSchema.parse(legacyTask(await adapter.get(alice, taskId), timing));
    expect(legacy.status).toBe("input_required");
    expect(legacy.statusMessage).toContain(question);
    expect(legacy.statusMessage).toContain(`ha_agent_approve with continuation_id ${taskId}, approval_id ${APPROVAL_ID}`);
  });
});

describe("tasks/update on a task waiting for an approval", () => {
  it("approves once, through the task channel, for accept with approve: true", async () => {
    const { agent, adapter, taskId } = await waitingTask();
    await adapter.update(alice, taskId, { [APPROVAL_ID]: { action: "accept", content: { approve: true, reason: "go ahead" } } });
    expect(agent.approvals).toEqual([{ principal: "alice", continuationId: taskId, approvalId: APPROVAL_ID, decision: "approve", reason: "go ahead", via: "task" }]);
    expect((await adapter.get(alice, taskId)).state.status).toBe("completed");
  });

  it.each([
    ["decline", { action: "decline" }],
    ["cancel", { action: "cancel" }],
    ["accept with approve: false", { action: "accept", content: { approve: false } }],
    ["a malformed form", { action: "accept", content: { approve: "yes" } }],
  ])("denies for %s", async (_name, response) => {
    const { agent, adapter, taskId } = await waitingTask();
    await adapter.update(alice, taskId, { [APPROVAL_ID]: response });
    expect(agent.approvals).toHaveLength(1);
    expect(agent.approvals[0]).toMatchObject({ decision: "deny", via: "task" });
  });

  it("ignores keys that are not outstanding, and an approval answered already", async () => {
    const { agent, adapter, taskId } = await waitingTask();
    await adapter.update(alice, taskId, { "01JD00000000000000000000ZZ": { action: "accept", content: { approve: true } } });
    await adapter.update(alice, taskId, undefined);
    expect(agent.approvals).toEqual([]);
    await adapter.update(alice, taskId, { [APPROVAL_ID]: { action: "accept", content: { approve: true } } });
    await expect(adapter.update(alice, taskId, { [APPROVAL_ID]: { action: "accept", content: { approve: true } } })).resolves.toBeUndefined();
    expect(agent.approvals).toHaveLength(1);
  });

  it("refuses an answer after the approval's deadline (approval_expired), also once the turn has ended expired", async () => {
    const { agent, adapter, taskId } = await waitingTask();
    const late = { [APPROVAL_ID]: { action: "accept", content: { approve: true } } };
    const asked: string[] = [];
    agent.approve = async (_principal, answer) => {
      asked.push(answer.approvalId);
      if (answer.approvalId !== APPROVAL_ID) throw new HaAgentError("no_pending_approval", "No such approval.");
      throw new HaAgentError("approval_expired", `Approval ${APPROVAL_ID} expired before this answer came; nothing was done.`);
    };
    await expect(adapter.update(alice, taskId, late)).rejects.toMatchObject({ code: -32602, data: { code: "approval_expired" } });
    const { approval: _expired, ...rest } = agent.records.get(taskId)!;
    agent.records.set(taskId, { ...rest, status: "expired", error: { code: "approval_expired", message: "No one answered in time; nothing was done." } });
    await expect(adapter.update(alice, taskId, late)).rejects.toMatchObject({ code: -32602, data: { code: "approval_expired" } });
    // Other keys are not outstanding there either: they are ignored, as on a waiting task.
    await expect(adapter.update(alice, taskId, { "01JD00000000000000000000ZZ": { action: "accept", content: { approve: true } } })).resolves.toBeUndefined();
    expect(asked).toEqual([APPROVAL_ID, APPROVAL_ID, "01JD00000000000000000000ZZ"]);
  });

  it("refuses another principal's task as unknown (-32602), and approves nothing", async () => {
    const { agent, adapter, taskId } = await waitingTask();
    await expect(adapter.update(bob, taskId, { [APPROVAL_ID]: { action: "accept", content: { approve: true } } })).rejects.toMatchObject({ code: -32602 });
    await expect(adapter.update(alice, "01JD0000000000000000000777", {})).rejects.toMatchObject({ code: -32602 });
    expect(agent.approvals).toEqual([]);
  });
});
