import { z } from "zod";
import type { Principal } from "../../shared/index.js";
import { ContinuationStatusSchema, type ContinuationRecord } from "../../store/index.js";
import { refusalsAsFailures } from "../failure.js";
import { BUDGET_FIELDS, SessionIdInput } from "../sessions/index.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { ContinuationResultWire, eventsPath } from "./wire.js";

export const SendMessageInput = z.object({
  session_id: SessionIdInput,
  message: z.string().min(1).max(8_000),
  allow_tools: z.boolean().optional().describe("Default true"),
  time_budget_ms: BUDGET_FIELDS.max_duration_ms.optional().describe("Default: the session's max_duration_ms; at most 3600000"),
  idempotency_key: z.string().min(1).max(200).optional().describe("Sent again, returns the first continuation"),
  stream: z.boolean().optional().describe("Stream the text to stream_url as it comes"),
  model: z.string().min(1).max(100).optional().describe("Another model for this turn, one the add-on's allowed_models lists"),
});

// Called as an MCP task, send_message ends with the turn's outcome, as ha_agent_await_continuation returns it.
const Output = z.object({
  continuation_id: z.string().describe("Pass this to ha_agent_await_continuation."),
  acknowledged: z.boolean().optional().describe("False when an earlier message with the same idempotency_key is returned instead. Absent from the outcome of a task."),
  status: ContinuationStatusSchema,
  ...ContinuationResultWire.omit({ continuation_id: true, status: true }).shape,
  session_id: z.string().optional(),
  stream_url: z.string().optional().describe("GET it (SSE, same bearer token) to watch the session's turns live."),
});

/** Starts the message's turn in the session; a repeated idempotency key returns the first one (`created: false`). */
export async function startSendMessage(agent: AgentService, principal: Principal, args: z.infer<typeof SendMessageInput>): Promise<{ continuation: ContinuationRecord; created: boolean }> {
  return agent.send(principal, {
    sessionId: args.session_id,
    message: args.message,
    ...(args.allow_tools !== undefined ? { allowTools: args.allow_tools } : {}),
    ...(args.time_budget_ms ? { timeBudgetMs: args.time_budget_ms } : {}),
    ...(args.idempotency_key ? { idempotencyKey: args.idempotency_key } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.stream ? { stream: true } : {}),
  });
}

/** `send_message`: starts a turn in a session and returns at once. */
export function createSendMessageTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "send_message",
    title: "Send a message",
    description:
      "Sends a message to the agent in a session; returns a continuation_id at once for await_continuation (as an MCP task, the answer itself).",
    input: SendMessageInput,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    invoke: refusalsAsFailures(async (args, ctx) => {
      const { continuation, created } = await startSendMessage(deps.agent, ctx.principal, args);
      return ok({ continuation_id: continuation.id, acknowledged: created, status: continuation.status, stream_url: eventsPath(continuation.sessionId) });
    }),
  });
}
