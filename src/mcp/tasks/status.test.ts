import { describe, expect, it } from "vitest";
import { CONTINUATION_STATUSES } from "../../store/index.js";
import { legacyTask } from "./legacy.js";
import { modernCreated, modernTask } from "./modern.js";
import { taskState } from "./status.js";
import type { TaskView } from "./view.js";
import { LegacyTaskSchema, ModernCreateTaskResultSchema, ModernDetailedTaskSchema } from "./wire.js";

const ID = "01JD0000000000000000000001";
const timing = { ttlMs: 86_400_000, pollIntervalMs: 1_000 };
const view = (state: TaskView["state"], result?: TaskView["result"]): TaskView => ({ taskId: ID, createdAt: 1_000, lastUpdatedAt: 2_000, state, ...(result ? { result } : {}) });

describe("a continuation's status as a task's", () => {
  it("is working while the turn is open, and input_required once it waits for an answer", () => {
    for (const status of ["pending", "running", "streaming"] as const) expect(taskState({ id: ID, status }).status).toBe("working");
    const waiting = taskState({ id: ID, status: "running", inputRequests: { approve: { method: "elicitation/create", params: { message: "Turn on the heating?" } } } });
    expect(waiting).toMatchObject({ status: "input_required", inputRequests: { approve: { method: "elicitation/create" } } });
    expect(ModernDetailedTaskSchema.parse(modernTask(view(waiting), timing))).toMatchObject({ status: "input_required", inputRequests: { approve: {} } });
  });

  it("shows an interrupted turn as failed, with a message naming ha_agent_resume, in both eras", () => {
    const state = taskState({ id: ID, status: "interrupted" });
    expect(state.status).toBe("failed");
    const modern = ModernDetailedTaskSchema.parse(modernTask(view(state), timing));
    expect(modern.status === "failed" && modern.error.message).toContain("ha_agent_resume");
    expect(modern.status === "failed" && modern.error.data).toEqual({ code: "interrupted" });
    expect(LegacyTaskSchema.parse(legacyTask(view(state), timing)).statusMessage).toContain("ha_agent_resume");
  });

  it("shows an expired turn as failed, and keeps a failed turn's own code and message", () => {
    expect(taskState({ id: ID, status: "expired" })).toMatchObject({ status: "failed", error: { data: { code: "expired" } } });
    expect(taskState({ id: ID, status: "failed", error: { code: "model_error", message: "The model refused." } })).toMatchObject({ status: "failed", message: "The model refused.", error: { message: "The model refused.", data: { code: "model_error" } } });
  });

  it("maps every continuation status, and only completed and cancelled to themselves", () => {
    const mapped = Object.fromEntries(CONTINUATION_STATUSES.map((s) => [s, taskState({ id: ID, status: s }).status]));
    expect(mapped).toEqual({ pending: "working", running: "working", streaming: "working", input_required: "working", completed: "completed", failed: "failed", cancelled: "cancelled", expired: "failed", interrupted: "failed" });
  });

  it("builds shapes that match each era's schema: the flat 2026 task and the 2025 task", () => {
    const created = ModernCreateTaskResultSchema.parse(modernCreated(view({ status: "working" }), timing));
    expect(created).toEqual({ resultType: "task", taskId: ID, status: "working", createdAt: "1970-01-01T00:00:01.000Z", lastUpdatedAt: "1970-01-01T00:00:02.000Z", ttlMs: 86_400_000, pollIntervalMs: 1_000, content: [] });
    const result = { content: [{ type: "text" as const, text: '{"a":1}' }], structuredContent: { a: 1 } };
    expect(ModernDetailedTaskSchema.parse(modernTask(view({ status: "completed" }, result), timing))).toMatchObject({ status: "completed", result });
    expect(LegacyTaskSchema.parse(legacyTask(view({ status: "working" }), timing))).toEqual({ taskId: ID, status: "working", createdAt: "1970-01-01T00:00:01.000Z", lastUpdatedAt: "1970-01-01T00:00:02.000Z", ttl: 86_400_000, pollInterval: 1_000 });
  });
});
