import { z } from "zod";
import { HaAgentError } from "../../shared/index.js";
import { ULID_PATTERN, isFinalStatus, type ContinuationRecord } from "../../store/index.js";
import { fail, type ToolCallContext, type ToolOutcome } from "../tool.js";
import type { AgentService } from "./service.js";

export const ContinuationIdInput = z.string().regex(ULID_PATTERN, "expected a continuation id as returned by ha_agent_send_message (26-character ULID)");

/** Default and longest wait of one await: under the time-outs MCP clients put on a tool call. */
export const DEFAULT_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 300_000;

export const WaitInput = z.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`How long to wait for the answer, in ms (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}).`);

const Status = z.enum(["pending", "running", "streaming", "completed", "failed", "cancelled", "expired", "interrupted"]);

export const ContinuationResultWire = z.object({
  continuation_id: z.string(),
  session_id: z.string(),
  status: Status.describe("completed, failed, cancelled and expired are final; interrupted can be resumed."),
  response: z.object({ final_message: z.string(), citations: z.array(z.string()) }).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  artifacts: z.array(z.object({ id: z.string(), name: z.string().optional(), media_type: z.string(), bytes: z.number().int() })).optional(),
  usage: z.object({ steps: z.number().int(), tool_calls: z.number().int(), tokens_in: z.number().int(), tokens_out: z.number().int(), tokens_thinking: z.number().int() }).optional(),
  progress: z.string().optional().describe("What the turn is doing now, while it is not final."),
});
export type ContinuationResult = z.infer<typeof ContinuationResultWire>;

export function continuationResult(record: ContinuationRecord, progress?: string): ContinuationResult {
  const final = isFinalStatus(record.status);
  return {
    continuation_id: record.id,
    session_id: record.sessionId,
    status: record.status,
    ...(record.response ? { response: { final_message: record.response.finalMessage, citations: (record.response.citations ?? []).map((c) => c.source) } } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(final
      ? {
          artifacts: record.artifacts.map((a) => ({ id: a.id, ...(a.name ? { name: a.name } : {}), media_type: a.mediaType, bytes: a.bytes })),
          usage: { steps: record.usage.steps, tool_calls: record.usage.toolCalls, tokens_in: record.usage.tokensIn, tokens_out: record.usage.tokensOut, tokens_thinking: record.usage.tokensThinking },
        }
      : progress
        ? { progress }
        : {}),
  };
}

/** Waits for a continuation, turning each step into an MCP progress notification when the caller asked for them. */
export async function awaitWithProgress(agent: AgentService, ctx: ToolCallContext, continuationId: string, timeoutMs: number): Promise<ContinuationResult> {
  let steps = 0;
  let latest: string | undefined;
  const record = await agent.wait(
    ctx.principal,
    continuationId,
    timeoutMs,
    (event) => {
      if (event.type === "progress" && event.payload.message) latest = event.payload.message;
      if (event.type === "step" || event.type === "progress") {
        steps += event.type === "step" ? 1 : 0;
        void ctx.progress({ progress: steps, message: event.payload.message ?? `step ${steps}` }).catch(() => undefined);
      }
    },
    ctx.signal,
  );
  return continuationResult(record, latest ?? (isFinalStatus(record.status) ? undefined : `still ${record.status}; call ha_agent_await_continuation again`));
}

/** The runtime's refusals (busy, no model, not found…) are values the caller reads. */
export function agentFailure(err: unknown): ToolOutcome<never> {
  if (err instanceof HaAgentError) return fail(err.code, err.message);
  throw err;
}
