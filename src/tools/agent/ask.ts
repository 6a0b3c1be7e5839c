import { z } from "zod";
import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord } from "../../store/index.js";
import { refusalsAsFailures } from "../failure.js";
import { BUDGET_FIELDS, PersonaFields, personaChoice } from "../sessions/index.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { DEFAULT_WAIT_MS, StreamedResultWire, WaitInput, awaitWithProgress, eventsPath } from "./wire.js";

export const AskInput = z.object({
  message: z.string().min(1).max(8_000).describe("The question."),
  model: z.string().min(1).max(100).optional().describe("Another model of the configured provider."),
  budgets: z
    .object({
      max_steps: BUDGET_FIELDS.max_steps.optional(),
      max_tool_calls: BUDGET_FIELDS.max_tool_calls.optional(),
      max_tokens_per_turn: BUDGET_FIELDS.max_tokens_per_turn.optional(),
    })
    .optional()
    .describe("Limits for this question (defaults: 8 steps, 16 tool calls, 100000 tokens; at most 50, 200 and 2000000)."),
  allow_tools: z.boolean().optional().describe("Let the agent use tools (default true)."),
  approval: z.literal("ask").optional().describe('"ask": it may act where the add-on allows, after your yes for each action. Default: read-only (the demo asks).'),
  stream: z.boolean().optional().describe("Stream the answer's text to stream_url as it arrives."),
  timeout_ms: WaitInput,
  ...PersonaFields,
});

/** Starts the question's turn in a session of its own, without waiting for it. */
export async function startAsk(agent: AgentService, principal: Principal, args: z.infer<typeof AskInput>): Promise<ContinuationRecord> {
  const b = args.budgets;
  // The agent checks the persona before it opens the question's session.
  const persona = personaChoice(args);
  const { continuation } = await agent.ask(principal, {
    message: args.message,
    ...(args.model ? { model: args.model } : {}),
    ...(args.allow_tools !== undefined ? { allowTools: args.allow_tools } : {}),
    ...(args.stream ? { stream: true } : {}),
    ...(args.approval ? { approval: args.approval } : {}),
    ...(persona ? { persona } : {}),
    ...(b ? { budgets: { maxSteps: b.max_steps, maxToolCalls: b.max_tool_calls, maxTokensPerTurn: b.max_tokens_per_turn } } : {}),
  });
  return continuation;
}

/** `ask`: a one-shot question in a session of its own that ends itself. */
export function createAskTool(deps: { agent: AgentService }): ToolSpec {
  return defineTool({
    name: "ask",
    title: "Ask a question",
    description: "Asks the agent one question without keeping a session, and waits for the answer up to timeout_ms. If it takes longer, await the returned continuation_id.",
    input: AskInput,
    output: StreamedResultWire,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    invoke: refusalsAsFailures(async (args, ctx) => {
      const continuation = await startAsk(deps.agent, ctx.principal, args);
      const result = await awaitWithProgress(deps.agent, ctx, continuation.id, args.timeout_ms ?? DEFAULT_WAIT_MS);
      // Only a streamed answer has something to watch; otherwise the answer is as it always was.
      return ok(args.stream ? { ...result, stream_url: eventsPath(continuation.sessionId) } : result);
    }),
  });
}
