import { z } from "zod";
import { refusalsAsFailures } from "../failure.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { ContinuationIdInput, ContinuationResultWire, DEFAULT_WAIT_MS, WaitInput, awaitWithProgress } from "./wire.js";

const Input = z.object({ continuation_id: ContinuationIdInput, timeout_ms: WaitInput });

/** `resume`: puts an interrupted turn back to work, then waits like await_continuation. */
export function createResumeTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "resume",
    title: "Resume a turn",
    description:
      "Continues an interrupted continuation from its last saved step, repeating no model call or action, then waits as await_continuation does.",
    input: Input,
    output: ContinuationResultWire,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    invoke: refusalsAsFailures(async (args, ctx) => {
      await deps.agent.resume(ctx.principal, args.continuation_id);
      return ok(await awaitWithProgress(deps.agent, ctx, args.continuation_id, args.timeout_ms ?? DEFAULT_WAIT_MS));
    }),
  });
}
