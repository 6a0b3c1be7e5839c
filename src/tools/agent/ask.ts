import { z } from "zod";
import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord } from "../../store/index.js";
import { refusalsAsFailures } from "../failure.js";
import { BUDGET_FIELDS, PersonaFields, budgetsSaid, personaChoice } from "../sessions/index.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import type { AgentService } from "./service.js";
import { DEFAULT_WAIT_MS, StreamedResultWire, WaitInput, awaitWithProgress, eventsPath } from "./wire.js";

export const AskInput = z.object({
  message: z.string().min(1).max(8_000),
  model: z.string().min(1).max(100).optional().describe("Another model, one the add-on's allowed_models lists"),
  budgets: z
    .object({
      max_steps: BUDGET_FIELDS.max_steps.optional(),
      max_tool_calls: BUDGET_FIELDS.max_tool_calls.optional(),
      max_tokens_per_turn: BUDGET_FIELDS.max_tokens_per_turn.optional(),
    })
    .optional()
    .describe(budgetsSaid(["max_steps", "max_tool_calls", "max_tokens_per_turn"])),
  allow_tools: z.boolean().optional().describe("Default true"),
  approval: z.literal("ask").optional().describe("May act where the add-on allows, after a yes to each action; default read-only"),
  stream: z.boolean().optional().describe("Stream the text to stream_url as it comes"),
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
    description: "Asks the agent one question, without a session; waits up to timeout_ms, then returns a continuation_id to await.",
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
