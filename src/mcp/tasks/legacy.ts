import { isoTime, type TaskTiming, type TaskView } from "./view.js";
import type { LegacyCreateTaskResult, LegacyTask } from "./wire.js";

/** The 2025-11-25 shape of a task: status only; the result comes from tasks/result. */
export function legacyTask(view: TaskView, timing: TaskTiming): LegacyTask {
  return {
    taskId: view.taskId,
    status: view.state.status,
    ...(view.state.message ? { statusMessage: view.state.message } : {}),
    createdAt: isoTime(view.createdAt),
    lastUpdatedAt: isoTime(view.lastUpdatedAt),
    ttl: timing.ttlMs,
    pollInterval: timing.pollIntervalMs,
  };
}

/** tools/call's answer when the call became a task. */
export function legacyCreated(view: TaskView, timing: TaskTiming): LegacyCreateTaskResult {
  return { task: legacyTask(view, timing), content: [] };
}
