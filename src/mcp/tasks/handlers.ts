import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { Principal } from "../../shared/index.js";
import { principalFromAuthInfo } from "../principal.js";
import type { TaskAdapter } from "./adapter.js";
import { declaresTasks, tasksNotDeclared } from "./calls.js";
import { legacyTask } from "./legacy.js";
import { modernTask } from "./modern.js";
import { ListTasksParamsSchema, TaskIdParamsSchema, UpdateTaskParamsSchema, type Era, type LegacyListTasksResult } from "./wire.js";

/** The protocol era of the request a server instance serves. */

/**
 * The task methods of one era. 2026-07-28 has tasks/get, tasks/update and
 * tasks/cancel (registered with schemas, which is how the SDK lets the
 * extension reuse the 2025 names); 2025-11-25 has tasks/get, tasks/result,
 * tasks/list and tasks/cancel.
 *
 * Status notifications go out only where a request's own stream is open: a
 * 2025 tasks/result while it waits. The 2026 `notifications/tasks` would go
 * on `subscriptions/listen` streams, which the SDK's handler owns: its bus
 * carries only the four list-changed and resource-updated events, and it
 * drops a filter's `taskIds`. So 2026 clients poll tasks/get.
 */
export function registerTaskHandlers(server: Server, options: { adapter: TaskAdapter; era: Era }): void {
  const { adapter, era } = options;
  const { timing } = adapter;
  // A 2026-07-28 client must declare the extension on each task request; a 2025 client negotiated tasks at initialize.
  const declared = (ctx: ServerContext, method: string) => {
    if (era === "modern" && !declaresTasks(ctx.mcpReq.envelope)) throw tasksNotDeclared(method);
  };
  server.setRequestHandler("tasks/get", { params: TaskIdParamsSchema }, async (params, ctx) => {
    declared(ctx, "tasks/get");
    const view = await adapter.get(caller(ctx), params.taskId);
    return era === "modern" ? modernTask(view, timing) : legacyTask(view, timing);
  });
  server.setRequestHandler("tasks/cancel", { params: TaskIdParamsSchema }, async (params, ctx) => {
    declared(ctx, "tasks/cancel");
    const principal = caller(ctx);
    if (era === "legacy") return legacyTask(await adapter.cancel(principal, params.taskId), timing);
    // The extension's cancel is an empty acknowledgement, even for a task that finished first; an unknown id (or another
    // caller's, which looks the same) gets -32602, as the extension's error handling says servers should.
    await adapter.requestCancel(principal, params.taskId);
    return {};
  });
  if (era === "modern") {
    server.setRequestHandler("tasks/update", { params: UpdateTaskParamsSchema }, async (params, ctx) => {
      declared(ctx, "tasks/update");
      // The SDK lifts `inputResponses` out of the params into the context, as for a retried request.
      await adapter.update(caller(ctx), params.taskId, ctx.mcpReq.inputResponses ?? params.inputResponses);
      return {};
    });
    return;
  }
  server.setRequestHandler("tasks/result", { params: TaskIdParamsSchema }, async (params, ctx) => {
    const progressToken = (params._meta as { progressToken?: string | number } | undefined)?.progressToken;
    return adapter.result({
      principal: caller(ctx),
      taskId: params.taskId,
      signal: ctx.mcpReq.signal,
      // The request's own stream is the one place a 2025 client hears about the task while it waits.
      onUpdate: ({ view, step }) => {
        void ctx.mcpReq.notify({ method: "notifications/tasks/status", params: legacyTask(view, timing) }).catch(() => undefined);
        if (progressToken !== undefined && step !== undefined) {
          void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: step, ...(view.state.message ? { message: view.state.message } : {}) } }).catch(() => undefined);
        }
      },
    });
  });
  server.setRequestHandler("tasks/list", { params: ListTasksParamsSchema }, async (params, ctx): Promise<LegacyListTasksResult> => {
    const page = await adapter.list(caller(ctx), params.cursor);
    return { tasks: page.tasks.map((view) => legacyTask(view, timing)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });
}

function caller(ctx: ServerContext): Principal {
  const principal = principalFromAuthInfo(ctx.http?.authInfo);
  if (!principal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "This request carries no verified caller. Reconnect with an Authorization header.");
  return principal;
}
