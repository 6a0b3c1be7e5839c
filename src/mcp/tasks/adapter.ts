import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from "@modelcontextprotocol/server";
import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord, MessageRef } from "../../store/index.js";
import { approvalQuestion, decisionFromElicitation, type AgentServiceEvent, type AgentTasks, type ToolOutcome } from "../../tools/index.js";
import { structuredResult } from "../tool-result.js";
import { isTerminalTask, taskState } from "./status.js";
import type { TaskTiming, TaskView } from "./view.js";
import type { TaskStatus, ToolResult } from "./wire.js";

/** What a waiting tasks/result hears about its task: the step the turn reached. */
export interface TaskUpdate {
  view: TaskView;
  step?: number;
}

/**
 * Both eras' task methods over the agent's continuations: a task is a
 * continuation, owned by the principal that started it. Another
 * principal's task and an id that never existed get the same error.
 */
export interface TaskAdapter {
  readonly timing: TaskTiming;
  /** Whether calls of the tool (by base name) may become tasks. */
  runsAsTask(tool: string): boolean;
  /** Starts the tool's turn as a task; a refusal is the tool's own failure value. */
  start(args: { principal: Principal; tool: string; arguments: unknown }): Promise<ToolOutcome<TaskView>>;
  get(principal: Principal, taskId: string): Promise<TaskView>;
  /** Cancels the turn (within a second) and returns the task as it is then. A task that finished otherwise is refused. */
  cancel(principal: Principal, taskId: string): Promise<TaskView>;
  /** Waits until the task is terminal, then answers what the tool answers synchronously. */
  result(args: { principal: Principal; taskId: string; signal: AbortSignal; onUpdate?: (update: TaskUpdate) => void }): Promise<ToolResult>;
  /** Calls `onChange` with the task now and at each change of its status until it is terminal or `signal` aborts. */
  watch(args: { principal: Principal; taskId: string; signal: AbortSignal; onChange: (view: TaskView) => void }): Promise<void>;
  /** The principal's tasks, newest first. */
  list(principal: Principal, cursor?: string): Promise<{ tasks: TaskView[]; nextCursor?: string }>;
  /** The 2026-07-28 cancel: asks the turn to stop; a task that already finished is left as it is. An unknown id is refused. */
  requestCancel(principal: Principal, taskId: string): Promise<void>;
  /**
   * Takes a person's answers for the task. The response keyed by the pending
   * approval's id is journaled as the decision before this resolves; keys that
   * are not outstanding (never issued, or answered already) are ignored. An
   * answer after the approval's deadline is refused (`data.code`
   * `approval_expired`), also once that ended the turn. An unknown id is
   * refused.
   */
  update(principal: Principal, taskId: string, inputResponses: Record<string, unknown> | undefined): Promise<void>;
}

/** One wait of tasks/result; it waits again until the task is terminal or the caller leaves. */
const WAIT_SLICE_MS = 60_000;
const LIST_PAGE = 50;
/** Keys of a late tasks/update checked against a turn that ended: a turn has only so many approvals. */
const MAX_LATE_KEYS = 16;

export function createTaskAdapter(options: { tasks: AgentTasks; timing: TaskTiming }): TaskAdapter {
  const { tasks, timing } = options;
  const retention = `${Math.round(timing.ttlMs / 3_600_000)} hours`;
  const notFound = (taskId: string) =>
    new ProtocolError(ProtocolErrorCode.InvalidParams, `Task "${taskId}" was not found. Check the id: a task is seen only by the caller that started it, and a finished one is kept ${retention}.`);
  const owned = (taskId: string, outcome: ToolOutcome<ContinuationRecord>): ContinuationRecord => {
    if (outcome.ok) return outcome.value;
    // `data.code` is the tool error code, as a tool call would carry it (approval_expired, …).
    throw outcome.error.code === "not_found" ? notFound(taskId) : new ProtocolError(ProtocolErrorCode.InvalidParams, `${outcome.error.message} (${outcome.error.code})`, { code: outcome.error.code });
  };
  const viewOf = (record: ContinuationRecord): TaskView => {
    const approval = record.status === "input_required" && record.approval ? { id: record.approval.id, question: approvalQuestion(record.approval) } : undefined;
    const state = taskState({ id: record.id, status: record.status, ...(record.error ? { error: record.error } : {}), ...(approval ? { approval } : {}) });
    return {
      taskId: record.id,
      createdAt: record.createdAt,
      lastUpdatedAt: record.updatedAt,
      state,
      ...(state.status === "completed" ? { result: structuredResult(tasks.outcome(record)) } : {}),
    };
  };
  /**
   * One bounded wait for the turn. A turn can change status and stay open:
   * it asks for an approval, and goes on once answered. So an approval event
   * ends the wait early, and so does a step while the task waits for input
   * (the decision is journaled as one), for the caller to look again.
   */
  const waitSlice = (args: { principal: Principal; taskId: string; status: TaskStatus; signal: AbortSignal; onEvent?: (event: AgentServiceEvent) => void }) => {
    const changed = new AbortController();
    return tasks.wait({
      principal: args.principal,
      continuationId: args.taskId,
      timeoutMs: WAIT_SLICE_MS,
      signal: AbortSignal.any([args.signal, changed.signal]),
      onEvent: (event) => {
        args.onEvent?.(event);
        if (event.type === "approval" || (event.type === "step" && args.status === "input_required")) changed.abort();
      },
    });
  };
  const viewOfRef = (ref: MessageRef): TaskView => ({ taskId: ref.continuationId, createdAt: ref.createdAt, lastUpdatedAt: ref.updatedAt, state: taskState({ id: ref.continuationId, status: ref.status }) });

  return {
    timing,
    runsAsTask: (tool) => tasks.tools.includes(tool),
    async start(args) {
      const started = await tasks.start(args);
      return started.ok ? { ok: true, value: viewOf(started.value) } : started;
    },
    async get(principal, taskId) {
      return viewOf(owned(taskId, await tasks.get(principal, taskId)));
    },
    async cancel(principal, taskId) {
      const cancelled = await tasks.cancel(principal, taskId);
      if (!cancelled.ok && cancelled.error.code === "already_final") {
        const view = viewOf(owned(taskId, await tasks.get(principal, taskId)));
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task "${taskId}" is already ${view.state.status}; a finished task cannot be cancelled.`);
      }
      return viewOf(owned(taskId, cancelled));
    },
    async result({ principal, taskId, signal, onUpdate }) {
      let record = owned(taskId, await tasks.get(principal, taskId));
      let reported: TaskStatus = "working";
      for (;;) {
        const known = viewOf(record);
        if (isTerminalTask(known.state.status)) return { ...structuredResult(tasks.outcome(record)), _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
        if (signal.aborted) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "The request was cancelled before the task finished; ask for its result again.");
        // A change of status that leaves the task open (waiting for an approval, or going on after one) is told as it happens.
        if (known.state.status !== reported) onUpdate?.({ view: known });
        reported = known.state.status;
        const started = Date.now();
        record = owned(
          taskId,
          await waitSlice({
            principal,
            taskId,
            status: known.state.status,
            signal,
            onEvent: (event) => {
              const message = event.payload.message;
              if (!onUpdate || !message || event.type === "approval") return;
              const step = event.payload.step?.number;
              onUpdate({ view: { ...known, lastUpdatedAt: Date.now(), state: { status: "working", message } }, ...(step !== undefined ? { step } : {}) });
            },
          }),
        );
        // A turn that is open but not running answers at once; do not spin on it.
        if (!isTerminalTask(viewOf(record).state.status) && Date.now() - started < timing.pollIntervalMs) await sleep(timing.pollIntervalMs, signal);
      }
    },
    async watch({ principal, taskId, signal, onChange }) {
      let last: string | undefined;
      for (;;) {
        const got = await tasks.get(principal, taskId);
        if (!got.ok || signal.aborted) return;
        const view = viewOf(got.value);
        if (view.state.status !== last) onChange(view);
        last = view.state.status;
        if (isTerminalTask(view.state.status)) return;
        const started = Date.now();
        await waitSlice({ principal, taskId, status: view.state.status, signal });
        // A turn that is open but not running answers at once; do not spin on it.
        if (Date.now() - started < timing.pollIntervalMs) await sleep(timing.pollIntervalMs, signal);
      }
    },
    async list(principal, cursor) {
      const page = await tasks.list(principal, { limit: LIST_PAGE, ...(cursor ? { cursor } : {}) });
      return { tasks: page.continuations.map(viewOfRef), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
    async requestCancel(principal, taskId) {
      const cancelled = await tasks.cancel(principal, taskId);
      // Cancelling is a request, not a promise: a turn that finished first keeps its outcome, and the caller reads it with tasks/get.
      if (!cancelled.ok && cancelled.error.code === "already_final") return;
      owned(taskId, cancelled);
    },
    async update(principal, taskId, inputResponses) {
      const record = owned(taskId, await tasks.get(principal, taskId));
      const approval = record.status === "input_required" ? record.approval : undefined;
      // A turn its approval's deadline ended refuses a late answer to that approval (approval_expired), as every channel does.
      const keys = approval ? [approval.id] : record.status === "expired" ? Object.keys(inputResponses ?? {}).slice(0, MAX_LATE_KEYS) : [];
      for (const approvalId of keys) {
        const response = inputResponses?.[approvalId];
        if (response === undefined) continue;
        const answered = await tasks.approve(principal, { continuationId: taskId, approvalId, ...decisionFromElicitation(response), via: "task" });
        // Answered in the meantime (twice, or through another channel): a key no longer outstanding, ignored like any other.
        if (!answered.ok && answered.error.code === "no_pending_approval") continue;
        owned(taskId, answered);
      }
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
