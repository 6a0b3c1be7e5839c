import { z } from "zod";
import { refusalsAsFailures } from "../failure.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import { ApprovalDecisionSchema } from "./approval-wire.js";
import type { AgentService } from "./service.js";
import { ContinuationIdInput, ContinuationResultWire, continuationResult } from "./wire.js";

const Input = z.object({
  continuation_id: ContinuationIdInput,
  approval_id: z.string().min(1).max(64),
  decision: ApprovalDecisionSchema,
  reason: z.string().max(500).optional(),
});

/** `approve`: a person's answer to an action the agent waits to take. */
export function createApproveTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "approve",
    title: "Approve or deny an action",
    description:
      "Answers the action a turn waits on (input_required), after asking the person: approve runs exactly that call, once; deny runs nothing. Then await the turn again.",
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
