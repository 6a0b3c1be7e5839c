import { SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY } from "@modelcontextprotocol/server";
import type { Principal } from "../../shared/index.js";
import type { TaskAdapter } from "./adapter.js";
import { modernTask } from "./modern.js";
import { ListenTaskIdsSchema } from "./wire.js";

/** Keep-alive comments as often as the SDK sends them on its own listen streams. */
const KEEP_ALIVE_MS = 15_000;

/** The task ids a `subscriptions/listen` request asks about, or undefined when it asks about none (the SDK serves it then). */
export function listenTaskIds(body: unknown): string[] | undefined {
  const parsed = ListenTaskIdsSchema.safeParse(body);
  return parsed.success ? parsed.data.params.notifications.taskIds : undefined;
}

/**
 * A `subscriptions/listen` stream of `notifications/tasks`, shaped like the
 * SDK's own listen streams: the acknowledgement, then one notification per
 * status change of each agreed task (the first says where it stands now),
 * keep-alive comments, and on `shutdown` the listen result. Only the
 * caller's own tasks are agreed to; other ids are left out of the ack and
 * nothing about them is sent. Other notification types asked for in the same
 * request are not agreed to: this server's lists never change
 * (`listChanged: false`) and it has no resource subscriptions.
 */
export async function serveTaskListen(args: {
  adapter: TaskAdapter;
  principal: Principal;
  id: string | number;
  taskIds: string[];
  serverInfo: Record<string, unknown>;
  /** The caller left: the stream just ends. */
  signal: AbortSignal;
  /** The program stops: the stream ends with its result. */
  shutdown: AbortSignal;
}): Promise<Response> {
  const { adapter, principal, id } = args;
  const agreed: string[] = [];
  for (const taskId of new Set(args.taskIds)) {
    // Another principal's task and an unknown id are refused alike, and simply not agreed to.
    if (await adapter.get(principal, taskId).then(() => true, () => false)) agreed.push(taskId);
  }
  const encoder = new TextEncoder();
  const stop = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const write = (frame: string) => {
    if (!closed) controller.enqueue(encoder.encode(frame));
  };
  const send = (message: Record<string, unknown>) => write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...message })}\n\n`);
  const meta = { [SUBSCRIPTION_ID_META_KEY]: id };
  const end = (graceful: boolean) => {
    if (closed) return;
    if (graceful) send({ id, result: { resultType: "complete", _meta: { ...meta, [SERVER_INFO_META_KEY]: args.serverInfo } } });
    closed = true;
    clearInterval(keepAlive);
    stop.abort();
    args.signal.removeEventListener("abort", onLeave);
    args.shutdown.removeEventListener("abort", onShutdown);
    controller.close();
  };
  const onLeave = () => end(false);
  const onShutdown = () => end(true);
  const keepAlive = setInterval(() => write(": keepalive\n\n"), KEEP_ALIVE_MS);
  keepAlive.unref();
  const readable = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      send({ method: "notifications/subscriptions/acknowledged", params: { notifications: agreed.length > 0 ? { taskIds: agreed } : {}, _meta: meta } });
      // Like the SDK: nothing agreed to, nothing to wait for.
      if (agreed.length === 0) end(true);
    },
    cancel: () => end(false),
  });
  if (!closed) {
    if (args.signal.aborted) end(false);
    else if (args.shutdown.aborted) end(true);
    args.signal.addEventListener("abort", onLeave, { once: true });
    args.shutdown.addEventListener("abort", onShutdown, { once: true });
    for (const taskId of agreed) {
      void adapter
        .watch({ principal, taskId, signal: stop.signal, onChange: (view) => send({ method: "notifications/tasks", params: { ...modernTask(view, adapter.timing), _meta: meta } }) })
        .catch(() => undefined);
    }
  }
  return new Response(readable, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" } });
}
