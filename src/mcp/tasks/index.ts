export { createTaskAdapter, type TaskAdapter, type TaskUpdate } from "./adapter.js";
export { registerTaskHandlers } from "./handlers.js";
export type { Era } from "./wire.js";
export { taskRequested, startTaskCall } from "./calls.js";
export { listenTaskIds, serveTaskListen } from "./listen.js";
export { declaresTasks, tasksNotDeclared } from "./calls.js";
export { taskState, isTerminalTask, type TaskState, type TurnState } from "./status.js";
export type { TaskView, TaskTiming } from "./view.js";
export * from "./wire.js";

/** The 2025-11-25 capability: tools/call may become a task, and tasks can be listed and cancelled. */
export const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
