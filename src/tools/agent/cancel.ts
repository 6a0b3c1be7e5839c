import { z } from "zod";
import { refusalsAsFailures } from "../failure.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { ContinuationIdInput } from "./wire.js";

const Input = z.object({ continuation_id: ContinuationIdInput, reason: z.string().max(500).optional() });
const Output = z.object({ status: z.literal("cancelled") });

/** `cancel`: stops a turn within a second; final, also after a restart. */
export function createCancelTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "cancel",
    title: "Cancel a turn",
    description:
      "Cancels a running or interrupted continuation within a second; a finished one is refused (already_final).",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    invoke: refusalsAsFailures(async (args, ctx) => {
      await deps.agent.cancel(ctx.principal, args.continuation_id, args.reason);
      return ok({ status: "cancelled" as const });
    }),
  });
}
