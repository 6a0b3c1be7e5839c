import { z } from "zod";
import { SessionIdInput } from "../sessions/index.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { agentFailure } from "./wire.js";

const Input = z.object({
  session_id: SessionIdInput,
  message: z.string().min(1).max(8_000).describe("What to ask or tell the agent."),
  planner_hints: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean()])).optional().describe("Optional hints for this turn."),
  allow_tools: z.boolean().optional().describe("Let the agent use tools this turn (default true)."),
  time_budget_ms: z.number().int().min(1_000).max(600_000).optional().describe("Time this turn may take, in ms (default: the session's)."),
  idempotency_key: z.string().min(1).max(200).optional().describe("Sending the same key again returns the first continuation instead of a new one."),
  stream: z.boolean().optional().describe("Events for this turn go to the session's event stream; await works either way."),
  model: z.string().min(1).max(100).optional().describe("Use another model of the same provider for this turn."),
});

const Output = z.object({
  continuation_id: z.string().describe("Pass this to ha_agent_await_continuation."),
  acknowledged: z.boolean().describe("False when an earlier message with the same idempotency_key is returned instead."),
  status: z.enum(["pending", "running", "streaming", "completed", "failed", "cancelled", "expired", "interrupted"]),
});

/** `send_message`: starts a turn in a session and returns at once. */
export function createSendMessageTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "send_message",
    title: "Send a message",
    description: "Sends a message to the agent in one of your sessions and returns a continuation_id at once. Await the answer with ha_agent_await_continuation.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async invoke(args, ctx) {
      try {
        const { continuation, created } = await deps.agent.send(ctx.principal, {
          sessionId: args.session_id,
          message: args.message,
          ...(args.allow_tools !== undefined ? { allowTools: args.allow_tools } : {}),
          ...(args.time_budget_ms ? { timeBudgetMs: args.time_budget_ms } : {}),
          ...(args.idempotency_key ? { idempotencyKey: args.idempotency_key } : {}),
          ...(args.model ? { model: args.model } : {}),
          ...(args.planner_hints ? { plannerHints: args.planner_hints } : {}),
        });
        return ok({ continuation_id: continuation.id, acknowledged: created, status: continuation.status });
      } catch (err) {
        return agentFailure(err);
      }
    },
  });
}
