import { z } from "zod";
import { ContinuationStatusSchema, ULID_PATTERN, isFinalStatus, type ContinuationRecord } from "../../store/index.js";
import type { ToolCallContext } from "../tool.js";
import { ApprovalWire, approvalToWire } from "./approval-wire.js";
import type { AgentService, AgentServiceEvent } from "./service.js";

export const ContinuationIdInput = z.string().regex(ULID_PATTERN, "expected a continuation id as returned by ha_agent_send_message (26-character ULID)");

/** Default and longest wait of one await: under the time-outs MCP clients put on a tool call. */
export const DEFAULT_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 300_000;

export const WaitInput = z.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`ms; default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}`);

export const ContinuationResultWire = z.object({
  continuation_id: z.string(),
  session_id: z.string(),
  status: z
    .union([ContinuationStatusSchema, z.literal("streaming")])
    .describe("completed, failed, cancelled and expired are final; interrupted can be resumed; streaming: partial_response holds the text so far; input_required: an action waits for a person's yes (see approval)."),
  partial_response: z.string().optional(),
  response: z.object({ final_message: z.string(), citations: z.array(z.string()) }).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  artifacts: z.array(z.object({ id: z.string(), name: z.string().optional(), media_type: z.string(), bytes: z.number().int() })).optional(),
  usage: z.object({ steps: z.number().int(), tool_calls: z.number().int(), tokens_in: z.number().int(), tokens_out: z.number().int(), tokens_thinking: z.number().int() }).optional(),
  approval: ApprovalWire.optional().describe("While input_required: the exact call waiting for a person's yes."),
  progress: z.string().optional().describe("What the turn is doing now, or what to do about it, while it is not final."),
  next: z
    .enum(["await", "resume", "approve"])
    .optional()
    .describe(
      "While not final: await = it is still working, call ha_agent_await_continuation again; resume = a restart interrupted it, call ha_agent_resume (or ha_agent_retry); approve = ask the person, then answer with ha_agent_approve.",
    ),
});
export type ContinuationResult = z.infer<typeof ContinuationResultWire>;

/** The result of a turn sent with `stream`, which also says where to watch it. */
export const StreamedResultWire = ContinuationResultWire.extend({ stream_url: z.string().optional() });

const INTERRUPTED =
  "The turn was interrupted by a restart and is not running. Call ha_agent_resume to continue it from its last saved step, or ha_agent_retry to send the message again as a new turn.";

/** Where a session's events are served on the MCP port. */
export const eventsPath = (sessionId: string): string => `/events/${sessionId}`;

/** `streamed`: the text so far of a turn sent with `stream`, while it arrives; it reports `streaming`. */
export function continuationResult(record: ContinuationRecord, progress?: string, streamed?: string): ContinuationResult {
  if (streamed !== undefined && record.status === "running") {
    return { continuation_id: record.id, session_id: record.sessionId, status: "streaming", partial_response: streamed, progress: progress ?? "The answer is arriving; call ha_agent_await_continuation again.", next: "await" };
  }
  const base: ContinuationResult = {
    continuation_id: record.id,
    session_id: record.sessionId,
    status: record.status,
    ...(record.response ? { response: { final_message: record.response.finalMessage, citations: (record.response.citations ?? []).map((c) => c.source) } } : {}),
    ...(record.error ? { error: record.error } : {}),
  };
  if (record.status === "interrupted") return { ...base, progress: INTERRUPTED, next: "resume" };
  if (record.status === "input_required" && record.approval) {
    const approval = approvalToWire(record.approval);
    return { ...base, approval, progress: `${approval.question} Ask the person, then call ha_agent_approve with approval_id ${approval.approval_id} and decision approve or deny.`, next: "approve" };
  }
  if (!isFinalStatus(record.status)) return { ...base, progress: progress ?? `Still ${record.status}; call ha_agent_await_continuation again.`, next: "await" };
  return {
    ...base,
    artifacts: record.artifacts.map((a) => ({ id: a.id, ...(a.name ? { name: a.name } : {}), media_type: a.mediaType, bytes: a.bytes })),
    usage: { steps: record.usage.steps, tool_calls: record.usage.toolCalls, tokens_in: record.usage.tokensIn, tokens_out: record.usage.tokensOut, tokens_thinking: record.usage.tokensThinking },
  };
}

/**
 * Waits for a continuation and sends one MCP progress notification per model
 * step as it is journaled. The progress value is the step's number, the same
 * number get_session shows, so it only grows within one call and carries on
 * from the journal after a resume.
 */
export async function awaitWithProgress(agent: AgentService, ctx: ToolCallContext, continuationId: string, timeoutMs: number): Promise<ContinuationResult> {
  let reported = 0;
  let latest: string | undefined;
  const onEvent = (event: AgentServiceEvent) => {
    if (event.payload.message) latest = event.payload.message;
    const step = event.payload.step;
    if (event.type !== "step" || step?.type !== "model_response" || step.number === undefined || step.number <= reported) return;
    reported = step.number;
    void ctx.progress({ progress: reported, message: event.payload.message ?? `Step ${reported} done` }).catch(() => undefined);
  };
  const record = await agent.wait(ctx.principal, continuationId, timeoutMs, onEvent, ctx.signal);
  return continuationResult(record, latest, agent.streaming?.(continuationId));
}
