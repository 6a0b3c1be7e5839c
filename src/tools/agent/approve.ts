import { z } from "zod";
import { refusalsAsFailures } from "../failure.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import { ApprovalDecisionSchema } from "./approval-wire.js";
import type { AgentService } from "./service.js";
import { ContinuationIdInput, ContinuationResultWire, continuationResult } from "./wire.js";

const Input = z.object({
  continuation_id: ContinuationIdInput,
  approval_id: z.string().min(1).max(64).describe("The approval_id of the pending approval, from ha_agent_await_continuation."),
  decision: ApprovalDecisionSchema.describe("approve runs exactly the call shown, once; deny runs nothing and tells the agent."),
  reason: z.string().max(500).optional().describe("Why, for the agent and the log."),
});

/** `approve`: a person's answer to an action the agent waits to take. */
export function createApproveTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "approve",
    title: "Approve or deny an action",
    description:
      "Answers an action a turn waits on (status input_required): approve runs exactly the call shown, once; deny runs nothing and the agent is told. Ask the person first. Then await the turn again.",
    input: Input,
    output: ContinuationResultWire,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    invoke: refusalsAsFailures(async (args, ctx) => {
      const record = await deps.agent.approve(ctx.principal, {
        continuationId: args.continuation_id,
        approvalId: args.approval_id,
        decision: args.decision,
        ...(args.reason ? { reason: args.reason } : {}),
        via: "tool",
      });
      return ok(continuationResult(record));
    }),
  });
}
