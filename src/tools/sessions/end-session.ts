import { z } from "zod";
import type { Store } from "../../store/index.js";
import { text } from "../limits.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import { refusalsAsFailures } from "../failure.js";
import { SessionIdInput } from "./wire.js";

const Input = z.object({
  session_id: SessionIdInput,
  reason: text().optional().describe("Why the session ends; kept with the session for later reading."),
});

const Output = z.object({ status: z.literal("ended") });

/** `end_session`: ends one of the caller's sessions. */
export function createEndSessionTool(deps: { store: Store }): ToolSpec {
  return defineTool({
    name: "end_session",
    title: "End a session",
    description: "Ends one of your sessions. It takes no more messages; its record stays readable with ha_agent_get_session until the sweeper removes it.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    invoke: refusalsAsFailures(async (args, ctx) => {
      await deps.store.sessions.end(ctx.principal.id, args.session_id, args.reason);
      return ok({ status: "ended" as const });
    }),
  });
}
