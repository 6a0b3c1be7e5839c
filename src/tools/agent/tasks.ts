import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord, MessageRef } from "../../store/index.js";
import { toolFailure } from "../failure.js";
import { fail, ok, type ToolOutcome } from "../tool.js";
import { formatZodError } from "../zod-errors.js";
import { AskInput, startAsk } from "./ask.js";
import { SendMessageInput, startSendMessage } from "./send-message.js";
import type { AgentService, AgentServiceEvent, ApprovalAnswer } from "./service.js";
import { StreamedResultWire, type ContinuationResult, continuationResult, eventsPath } from "./wire.js";

/**
 * What the MCP layer needs to serve agent turns as tasks: a turn's
 * continuation is the task. Refusals come back as failure values with the
 * tools' own codes (`not_found` for another principal's turn, as for an id
 * that never existed).
 */
export interface AgentTasks {
  /** Base names of the tools whose calls may become tasks. */
  readonly tools: readonly string[];
  /** Validates the arguments like the tool does and starts the turn without waiting; it is stored when this resolves. */
  start(args: { tool: string; principal: Principal; arguments: unknown }): Promise<ToolOutcome<ContinuationRecord>>;
  get(principal: Principal, continuationId: string): Promise<ToolOutcome<ContinuationRecord>>;
  /** Waits up to `timeoutMs` for the turn to leave its open statuses, reporting its events. */
  wait(args: { principal: Principal; continuationId: string; timeoutMs: number; onEvent?: (event: AgentServiceEvent) => void; signal?: AbortSignal }): Promise<ToolOutcome<ContinuationRecord>>;
  cancel(principal: Principal, continuationId: string): Promise<ToolOutcome<ContinuationRecord>>;
  /** Answers the turn's pending approval, as ha_agent_approve does. */
  approve(principal: Principal, answer: ApprovalAnswer): Promise<ToolOutcome<ContinuationRecord>>;
  list(principal: Principal, options: { cursor?: string; limit?: number }): Promise<{ continuations: MessageRef[]; nextCursor?: string }>;
  /** What ha_agent_ask answers synchronously for this continuation, and what a task's result holds. */
  outcome(record: ContinuationRecord): ContinuationResult;
}

export function createAgentTasks(deps: { agent: AgentService }): AgentTasks {
  const { agent } = deps;
  type Starter = (principal: Principal, raw: unknown) => Promise<ToolOutcome<ContinuationRecord>>;
  const starters = new Map<string, Starter>([
    [
      "ask",
      async (principal, raw) => {
        const args = AskInput.safeParse(raw ?? {});
        if (!args.success) return fail("invalid_argument", formatZodError(args.error));
        return settled(() => startAsk(agent, principal, args.data));
      },
    ],
    [
      "send_message",
      async (principal, raw) => {
        const args = SendMessageInput.safeParse(raw ?? {});
        if (!args.success) return fail("invalid_argument", formatZodError(args.error));
        return settled(async () => (await startSendMessage(agent, principal, args.data)).continuation);
      },
    ],
  ]);
  return {
    tools: [...starters.keys()],
    async start({ tool, principal, arguments: raw }) {
      const starter = starters.get(tool);
      return starter ? starter(principal, raw) : fail("unknown_tool", `The tool "${tool}" cannot run as a task; call it without one.`);
    },
    get: (principal, continuationId) => settled(() => agent.get(principal, continuationId)),
    wait: (args) => settled(() => agent.wait(args.principal, args.continuationId, args.timeoutMs, args.onEvent, args.signal)),
    cancel: (principal, continuationId) => settled(() => agent.cancel(principal, continuationId, "cancelled as a task")),
    approve: (principal, answer) => settled(() => agent.approve(principal, answer)),
    list: (principal, options) => agent.list(principal, options),
    // Parsed like the registry parses ask's result, so the JSON text is the same, key for key.
    outcome: (record) => StreamedResultWire.parse({ ...continuationResult(record), ...(record.request.stream ? { stream_url: eventsPath(record.sessionId) } : {}) }),
  };
}

/** A refusal thrown by the runtime or the store, as the failure value the tools return for it. */
async function settled<T>(run: () => Promise<T>): Promise<ToolOutcome<T>> {
  try {
    return ok(await run());
  } catch (err) {
    return toolFailure(err);
  }
}
