import type { ContinuationStatus } from "../../store/index.js";
import { approvalInputRequests } from "../approvals/index.js";
import type { InputRequests, TaskError, TaskStatus } from "./wire.js";

/** Where a task stands, in words both protocol eras can carry. */
export interface TaskState {
  status: TaskStatus;
  /** For people and models: what the task is doing, or what to do about it. */
  message?: string;
  /** Set when `failed`. */
  error?: TaskError;
  /** Set when `input_required`. */
  inputRequests?: InputRequests;
}

/** What a task's status is read from: its continuation, and what it waits for from a person. */
export interface TurnState {
  id: string;
  status: ContinuationStatus;
  error?: { code: string; message: string };
  /** Requests a person must answer before the turn goes on, besides an approval. */
  inputRequests?: InputRequests;
  /** The action an `input_required` turn waits to have approved, and the question for the person. */
  approval?: { id: string; question: string };
}

/** JSON-RPC's range for server-defined errors; `data.code` says which. */
const TURN_ERROR = -32000;

/**
 * The one mapping from a continuation's status to a task's. Open turns are
 * `working`, or `input_required` while they wait for a person. A turn a
 * restart interrupted is not running, so it shows as `failed`, with a
 * message that says how to resume it; an expired one is `failed` too.
 */
export function taskState(turn: TurnState): TaskState {
  switch (turn.status) {
    case "pending":
    case "running":
    case "streaming":
    case "input_required":
      if (turn.status === "input_required" && turn.approval) {
        return { status: "input_required", message: approvalMessage(turn.id, turn.approval), inputRequests: { ...turn.inputRequests, ...approvalInputRequests(turn.approval) } };
      }
      if (turn.inputRequests && Object.keys(turn.inputRequests).length > 0) {
        return { status: "input_required", message: "The turn waits for an answer; see inputRequests.", inputRequests: turn.inputRequests };
      }
      return { status: "working" };
    case "completed":
      return { status: "completed" };
    case "cancelled":
      return { status: "cancelled", message: turn.error?.message ?? "The turn was cancelled." };
    case "interrupted":
      return failed(
        "interrupted",
        `The turn was interrupted by a restart and is not running. Call ha_agent_resume with continuation_id ${turn.id} to continue it from its last saved step, or ha_agent_retry to send it again.`,
      );
    case "expired":
      return failed("expired", turn.error?.message ?? "The turn ran out of its time budget before it finished.");
    case "failed":
      return failed(turn.error?.code ?? "failed", turn.error?.message ?? "The turn failed.");
  }
}

/**
 * What a task waiting for an approval says, in both eras: the question, and
 * how to answer it with a tool. A 2026-07-28 client also gets the form in
 * `inputRequests` and answers with tasks/update; a 2025 client has only this
 * message, because the stateless 2025 path cannot carry an
 * `elicitation/create` to it (no server-to-client channel, no client
 * capabilities), so its tasks/result keeps waiting until someone answers.
 */
function approvalMessage(continuationId: string, approval: { id: string; question: string }): string {
  return `${approval.question} To answer, call ha_agent_approve with continuation_id ${continuationId}, approval_id ${approval.id} and decision approve or deny.`;
}

function failed(code: string, message: string): TaskState {
  return { status: "failed", message, error: { code: TURN_ERROR, message, data: { code } } };
}

/** Final for a task: nothing more will change, except that `ha_agent_resume` can put an interrupted turn back to work. */
export const isTerminalTask = (status: TaskStatus): boolean => status === "completed" || status === "failed" || status === "cancelled";
