import { z } from "zod";
import { ContinuationStatusSchema } from "../../store/index.js";
import { refusalsAsFailures } from "../failure.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { ContinuationIdInput } from "./wire.js";

const Input = z.object({ continuation_id: ContinuationIdInput });
const Output = z.object({
  continuation_id: z.string().describe("The new continuation; await it."),
  retry_of: z.string(),
  status: ContinuationStatusSchema,
});

/** `retry`: the same request again as a new continuation; the old one stays as it was. */
export function createRetryTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "retry",
    title: "Retry a turn",
    description:
      "Sends an earlier continuation's message again, on its model and in its session, as a new continuation.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    invoke: refusalsAsFailures(async (args, ctx) => {
      const { continuation } = await deps.agent.retry(ctx.principal, args.continuation_id);
      return ok({ continuation_id: continuation.id, retry_of: args.continuation_id, status: continuation.status });
    }),
  });
}
