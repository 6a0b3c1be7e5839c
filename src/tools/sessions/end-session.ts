import { z } from "zod";
import type { Store } from "../../store/index.js";
import { text } from "../limits.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import { refusalsAsFailures } from "../failure.js";
import { SessionIdInput } from "./wire.js";

const Input = z.object({
  session_id: SessionIdInput,
  reason: text().optional(),
});

const Output = z.object({ status: z.literal("ended") });

/** `end_session`: ends one of the caller's sessions. */
export function createEndSessionTool(deps: { store: Store }): ToolSpec {
  return defineTool({
    name: "end_session",
    title: "End a session",
    description: "Ends a session: it takes no more messages, and get_session reads it until it is swept.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    invoke: refusalsAsFailures(async (args, ctx) => {
      await deps.store.sessions.end(ctx.principal.id, args.session_id, args.reason);
      return ok({ status: "ended" as const });
    }),
  });
}
