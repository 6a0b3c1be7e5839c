import type { TaskState } from "./status.js";
import type { ToolResult } from "./wire.js";

/** One task as the adapter sees it, before it is put in either era's shape. */
export interface TaskView {
  taskId: string;
  /** Epoch ms. */
  createdAt: number;
  lastUpdatedAt: number;
  state: TaskState;
  /** What the tool answers synchronously; set once the task is completed. */
  result?: ToolResult;
}

/** How long a task is kept and how often to poll it: the same for every task. */
export interface TaskTiming {
  /** Finished turns are kept this long (the store's continuation retention). */
  ttlMs: number;
  pollIntervalMs: number;
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();
