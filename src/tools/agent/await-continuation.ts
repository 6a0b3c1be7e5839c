import { z } from "zod";
import { refusalsAsFailures } from "../failure.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { ContinuationIdInput, ContinuationResultWire, DEFAULT_WAIT_MS, WaitInput, awaitWithProgress } from "./wire.js";

const Input = z.object({ continuation_id: ContinuationIdInput, timeout_ms: WaitInput });

/** `await_continuation`: waits a bounded time for a turn, then returns where it is. */
export function createAwaitContinuationTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "await_continuation",
    title: "Await an answer",
    description:
      "Waits up to timeout_ms for a continuation: the answer when final, else its status and what to do next.",
    input: Input,
    output: ContinuationResultWire,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    invoke: refusalsAsFailures(async (args, ctx) => ok(await awaitWithProgress(deps.agent, ctx, args.continuation_id, args.timeout_ms ?? DEFAULT_WAIT_MS))),
  });
}
