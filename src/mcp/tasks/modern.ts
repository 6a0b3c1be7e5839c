import { isoTime, type TaskTiming, type TaskView } from "./view.js";
import type { ModernCreateTaskResult, ModernDetailedTask } from "./wire.js";

/** The 2026-07-28 shapes of a task. */
function fields(view: TaskView, timing: TaskTiming) {
  return {
    taskId: view.taskId,
    ...(view.state.message ? { statusMessage: view.state.message } : {}),
    createdAt: isoTime(view.createdAt),
    lastUpdatedAt: isoTime(view.lastUpdatedAt),
    ttlMs: timing.ttlMs,
    pollIntervalMs: timing.pollIntervalMs,
  };
}

/** tools/call's answer when the call became a task. */
export function modernCreated(view: TaskView, timing: TaskTiming): ModernCreateTaskResult {
  return { resultType: "task", ...fields(view, timing), status: view.state.status, content: [] };
}

/** tasks/get's answer: the status with what it carries (the result, the error or the input requests). */
export function modernTask(view: TaskView, timing: TaskTiming): ModernDetailedTask {
  const base = fields(view, timing);
  const { state } = view;
  switch (state.status) {
    case "completed":
      return { ...base, status: "completed", result: view.result ?? { content: [] } };
    case "failed":
      return { ...base, status: "failed", error: state.error ?? { code: -32000, message: state.message ?? "The task failed." } };
    case "input_required":
      return { ...base, status: "input_required", inputRequests: state.inputRequests ?? {} };
    case "cancelled":
      return { ...base, status: "cancelled" };
    case "working":
      return { ...base, status: "working" };
  }
}
