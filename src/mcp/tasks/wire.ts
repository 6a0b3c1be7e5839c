import { z } from "zod";

/** The protocol era a request came in: 2026-07-28 ("modern") or a 2025 revision through the stateless path ("legacy"). */
export type Era = "modern" | "legacy";

/**
 * The wire shapes of MCP tasks that HA Agent produces and accepts, in both
 * protocol eras: the 2026-07-28 tasks extension and the 2025-11-25 core
 * tasks. Types derive from these schemas; the builders in `modern.ts` and
 * `legacy.ts` produce them.
 */

/** The extension's identifier: in `server/discover` capabilities and in a request's client capabilities. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export const TaskStatusSchema = z.enum(["working", "input_required", "completed", "failed", "cancelled"]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** What a task waits for while `input_required`: requests for the client to answer, by key. */
export const InputRequestsSchema = z.record(z.string(), z.looseObject({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() }));
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** A failed task's error, a JSON-RPC error object; `data.code` is the stable code the tools use. */
export const TaskErrorSchema = z.object({ code: z.number().int(), message: z.string(), data: z.object({ code: z.string() }).optional() });
export type TaskError = z.infer<typeof TaskErrorSchema>;

/** A tool's result, as tools/call returns it synchronously. */
export const ToolResultSchema = z.object({
  content: z.array(z.object({ type: z.literal("text"), text: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

// 2026-07-28: the tasks extension.
const ModernTaskFields = {
  taskId: z.string(),
  statusMessage: z.string().optional(),
  createdAt: z.iso.datetime(),
  lastUpdatedAt: z.iso.datetime(),
  ttlMs: z.number().int().nonnegative().nullable(),
  pollIntervalMs: z.number().int().positive().optional(),
};

/** tools/call answered with a task. `content` is empty: the SDK checks every tools/call result for it. */
export const ModernCreateTaskResultSchema = z.object({ resultType: z.literal("task"), ...ModernTaskFields, status: TaskStatusSchema, content: z.tuple([]) });
export type ModernCreateTaskResult = z.infer<typeof ModernCreateTaskResultSchema>;

/** tasks/get (and `notifications/tasks`): the task with what its status carries. */
export const ModernDetailedTaskSchema = z.discriminatedUnion("status", [
  z.object({ ...ModernTaskFields, status: z.literal("working") }),
  z.object({ ...ModernTaskFields, status: z.literal("input_required"), inputRequests: InputRequestsSchema }),
  z.object({ ...ModernTaskFields, status: z.literal("completed"), result: ToolResultSchema }),
  z.object({ ...ModernTaskFields, status: z.literal("failed"), error: TaskErrorSchema }),
  z.object({ ...ModernTaskFields, status: z.literal("cancelled") }),
]);
export type ModernDetailedTask = z.infer<typeof ModernDetailedTaskSchema>;

// 2025-11-25: tasks in the core protocol.
export const LegacyTaskSchema = z.object({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.iso.datetime(),
  lastUpdatedAt: z.iso.datetime(),
  ttl: z.number().int().nonnegative().nullable(),
  pollInterval: z.number().int().positive().optional(),
});
export type LegacyTask = z.infer<typeof LegacyTaskSchema>;

/** tools/call answered with a task; `content` as for the 2026 shape. */
export const LegacyCreateTaskResultSchema = z.object({ task: LegacyTaskSchema, content: z.tuple([]) });
export type LegacyCreateTaskResult = z.infer<typeof LegacyCreateTaskResultSchema>;

export const LegacyListTasksResultSchema = z.object({ tasks: z.array(LegacyTaskSchema), nextCursor: z.string().optional() });
export type LegacyListTasksResult = z.infer<typeof LegacyListTasksResultSchema>;

// What clients send. Loose, so the request's own `_meta` passes through.
export const TaskIdParamsSchema = z.looseObject({ taskId: z.string().min(1).max(100) });
// The SDK lifts `inputResponses` out of the params into the handler's context (ctx.mcpReq.inputResponses), as for any retried request.
export const UpdateTaskParamsSchema = z.looseObject({ taskId: z.string().min(1).max(100), inputResponses: z.record(z.string(), z.unknown()).optional() });
export const ListTasksParamsSchema = z.looseObject({ cursor: z.string().max(100).optional() });

/** A 2026-07-28 request's client capabilities that declare the extension. */
export const ClientDeclaresTasksSchema = z.looseObject({ extensions: z.looseObject({ [TASKS_EXTENSION]: z.looseObject({}) }) });
/** A 2025-11-25 tools/call's `params.task`: the client asks for a task. */
export const LegacyTaskRequestSchema = z.looseObject({ ttl: z.number().optional() });

/** A `subscriptions/listen` request that asks for `notifications/tasks`. */
export const ListenTaskIdsSchema = z.looseObject({ params: z.looseObject({ notifications: z.looseObject({ taskIds: z.array(z.string().min(1).max(100)).max(100) }) }) });
