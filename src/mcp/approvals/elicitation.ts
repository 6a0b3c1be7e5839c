import { inputRequired, ProtocolError, ProtocolErrorCode, type InputRequiredResult, type InputRequests as SdkInputRequests, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import { decisionFromElicitation, type AgentTasks, type ToolCallContext, type ToolOutcome, type ToolRegistry } from "../../tools/index.js";
import { approvalInputRequests, declaresElicitationForm } from "./request.js";
import type { ApprovalState, ApprovalStateCodec } from "./state.js";

/** The tools whose answer can be a turn waiting for a person: they ask through elicitation, and their retry answers it. */
const ASKING_TOOLS: readonly string[] = ["ask", "await_continuation"];

/** A tool answer that waits for a person's yes, as the agent tools report it. */
const WaitingAnswer = z.object({
  status: z.literal("input_required"),
  continuation_id: z.string(),
  approval: z.object({ approval_id: z.string(), question: z.string() }),
});

/** What a retried call's arguments say about how to wait: the same arguments as the first call. */
const WaitArguments = z.looseObject({ timeout_ms: z.number().optional(), stream: z.boolean().optional() });

/**
 * Approvals over 2026-07-28 multi round-trip requests: a call of ask or
 * await_continuation whose turn waits for a person is answered with an
 * `InputRequiredResult` (a form elicitation and a signed `requestState`);
 * the client's retry carries the person's answer, which is journaled as the
 * decision before the turn is awaited again.
 */
export interface ApprovalElicitation {
  /** For `ServerOptions.requestState.verify`. */
  verify: ApprovalStateCodec["verify"];
  /**
   * A retried call: answers the approval its verified state names (when the
   * retry carries a response for it), then awaits the turn and answers as
   * the tool does. A state minted for another tool is refused.
   */
  resume(args: { tool: string; state: unknown; inputResponses: Record<string, unknown> | undefined; arguments: unknown; ctx: ToolCallContext }): Promise<ToolOutcome<Record<string, unknown>>>;
  /** The tool's answer as an `InputRequiredResult` when its turn waits for a person and the client can show a form; undefined otherwise. */
  ask(args: { tool: string; value: Record<string, unknown>; ctx: ServerContext }): Promise<InputRequiredResult | undefined>;
}

export function createApprovalElicitation(deps: { agent: AgentTasks; registry: ToolRegistry; codec: ApprovalStateCodec }): ApprovalElicitation {
  const { agent, registry, codec } = deps;

  /** What the tool answers for the turn now, in its own output shape (await_continuation has no stream_url). */
  const asTool = (tool: string, value: Record<string, unknown>): ToolOutcome<Record<string, unknown>> => {
    const checked = registry.get(tool)?.output.safeParse(value);
    return checked?.success ? { ok: true, value: checked.data as Record<string, unknown> } : { ok: false, error: { code: "internal", message: `The answer of ${tool} after an approval could not be built.` } };
  };

  /** Awaits the turn the state names, as await_continuation does (with its progress); ask's answer also names its stream. */
  const awaitTurn = async (state: ApprovalState, args: z.infer<typeof WaitArguments>, ctx: ToolCallContext) => {
    const awaited = await registry.call("await_continuation", { continuation_id: state.continuation_id, ...(args.timeout_ms !== undefined ? { timeout_ms: args.timeout_ms } : {}) }, ctx);
    if (!awaited.ok || state.tool === "await_continuation" || !args.stream) return awaited.ok ? asTool(state.tool, awaited.value) : awaited;
    const got = await agent.get(ctx.principal, state.continuation_id);
    const streamUrl = got.ok ? (agent.outcome(got.value) as { stream_url?: string }).stream_url : undefined;
    return asTool(state.tool, { ...awaited.value, ...(streamUrl ? { stream_url: streamUrl } : {}) });
  };

  return {
    verify: codec.verify,
    async resume({ tool, state: raw, inputResponses, arguments: rawArgs, ctx }) {
      const state = raw as ApprovalState;
      // Verified by the SDK through `verify` before the handler runs, so it is ours; the tool is checked, as the state may be echoed on any call.
      if (state.tool !== tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `This requestState belongs to a call of another tool. Retry the call that returned it, with the same name and arguments.`);
      const args = WaitArguments.safeParse(rawArgs ?? {});
      const wait = args.success ? args.data : {};
      const { continuation_id: continuationId, approval_id: approvalId } = state;
      const response = inputResponses?.[approvalId];
      if (response === undefined) {
        // Nothing answered yet: while the turn still waits for this approval, ask again at once.
        const got = await agent.get(ctx.principal, continuationId);
        if (!got.ok) return got;
        if (got.value.status === "input_required" && got.value.approval?.id === approvalId) return asTool(tool, agent.outcome(got.value));
        return awaitTurn(state, wait, ctx);
      }
      const answered = await agent.approve(ctx.principal, { continuationId, approvalId, ...decisionFromElicitation(response), via: "elicitation" });
      // Answered already (through another channel, or a repeated retry): the turn goes on as it was told, so just await it.
      if (!answered.ok && answered.error.code !== "no_pending_approval") return answered;
      return awaitTurn(state, wait, ctx);
    },
    async ask({ tool, value, ctx }) {
      if (!ASKING_TOOLS.includes(tool) || !declaresElicitationForm(ctx.mcpReq.envelope)) return undefined;
      const waiting = WaitingAnswer.safeParse(value);
      if (!waiting.success) return undefined;
      const { continuation_id, approval } = waiting.data;
      const requestState = await codec.mint({ tool, continuation_id, approval_id: approval.approval_id }, ctx);
      // Our request literal is the SDK's form elicitation; its type only differs in readonly-ness.
      const inputRequests = approvalInputRequests({ id: approval.approval_id, question: approval.question }) as unknown as SdkInputRequests;
      return inputRequired({ inputRequests, requestState });
    },
  };
}
