import { z } from "zod";
import type { Store } from "../../store/index.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import {
  BudgetsWire,
  ContinuationWire,
  ModelWire,
  PolicyWire,
  PreferencesWire,
  SessionIdInput,
  budgetsToWire,
  continuationToWire,
  iso,
  modelToWire,
  notFound,
  policyToWire,
  preferencesToWire,
} from "./wire.js";

const Input = z.object({ session_id: SessionIdInput });

const Output = z.object({
  session: z.object({
    session_id: z.string(),
    status: z.enum(["active", "ended", "expired"]).describe("An ended or expired session takes no more messages; start a new one."),
    created_at: z.string(),
    updated_at: z.string(),
    last_activity_at: z.string(),
    ended_at: z.string().nullable(),
    end_reason: z.string().nullable(),
    model: ModelWire,
    budgets: BudgetsWire,
    policy: PolicyWire,
    preferences: PreferencesWire,
    memory: z
      .object({
        rolling_summary_chars: z.number().int(),
        facts: z.number().int(),
        pins: z.number().int(),
        last_k: z.number().int(),
      })
      .describe("Sizes of what the session remembers."),
    usage: z.object({
      turns: z.number().int(),
      steps: z.number().int(),
      tool_calls: z.number().int(),
      tokens_in: z.number().int(),
      tokens_out: z.number().int(),
      tokens_thinking: z.number().int(),
    }),
    continuations: z.array(ContinuationWire).describe("Every turn still kept, oldest first, with its current status."),
    open_continuations: z.array(z.string()),
  }),
});

/** `get_session`: a summary of one of the caller's sessions. */
export function createGetSessionTool(deps: { store: Store }): ToolSpec {
  return defineTool({
    name: "get_session",
    title: "Get a session",
    description:
      "Summarises one of your sessions: status, settings, memory sizes, usage and every continuation with its status (interrupted ones can be resumed or retried).",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async invoke(args, ctx) {
      const s = deps.store.sessions.get(ctx.principal.id, args.session_id);
      if (!s) return notFound(args.session_id);
      // Open turns change status without rewriting session.json; read their live records.
      const continuations = await Promise.all(
        s.messages.map(async (ref) => {
          if (!s.openContinuations.includes(ref.continuationId)) return continuationToWire(ref);
          const live = await deps.store.continuations.get(ctx.principal.id, ref.continuationId);
          return continuationToWire(live ? { ...ref, status: live.status, updatedAt: live.updatedAt } : ref);
        }),
      );
      return ok({
        session: {
          session_id: s.id,
          status: s.status,
          created_at: iso(s.createdAt),
          updated_at: iso(s.updatedAt),
          last_activity_at: iso(s.lastActivityAt),
          ended_at: s.endedAt === undefined ? null : iso(s.endedAt),
          end_reason: s.endReason ?? null,
          model: modelToWire(s.model),
          budgets: budgetsToWire(s.budgets),
          policy: policyToWire(s.policy),
          preferences: preferencesToWire(s.preferences),
          memory: {
            rolling_summary_chars: s.memory.rollingSummary.length,
            facts: s.memory.facts.length,
            pins: s.memory.pins.length,
            last_k: s.memory.lastK.length,
          },
          usage: {
            turns: s.stats.turns,
            steps: s.stats.steps,
            tool_calls: s.stats.toolCalls,
            tokens_in: s.stats.tokensIn,
            tokens_out: s.stats.tokensOut,
            tokens_thinking: s.stats.tokensThinking,
          },
          continuations,
          open_continuations: s.openContinuations,
        },
      });
    },
  });
}
