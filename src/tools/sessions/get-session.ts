import { z } from "zod";
import type { Principal } from "../../shared/index.js";
import type { Store } from "../../store/index.js";
import type { ActuationCeiling } from "../actions/index.js";
import { defineTool, ok, type ToolSpec } from "../tool.js";
import {
  BudgetsWire,
  ContinuationWire,
  ModelInUseWire,
  PolicyOutWire,
  PreferencesWire,
  SessionIdInput,
  budgetsToWire,
  continuationToWire,
  iso,
  modelToWire,
  notFound,
  policyToWire,
  preferencesToWire,
  type ConfiguredModel,
  type PersonaCheck,
} from "./wire.js";

const Input = z.object({ session_id: SessionIdInput });

/** One model invocation of a turn, as get_session shows it (a CompletionTrace). */
export interface TurnTrace {
  step: number;
  model: string;
  tokensIn: number;
  tokensOut: number;
  tokensThinking: number;
  durationMs: number;
  finishReason: string;
  toolCalls: string[];
}

export interface SessionToolDeps {
  store: Store;
  /** How the configured model is named for people, e.g. "Demo model (scripted rules, not an AI)". */
  modelLabel?: () => string;
  /** The add-on's configured provider and model, which sessions use unless they name another model. */
  configuredModel?: () => ConfiguredModel;
  /** The traces of one continuation, read from its journal; the agent provides them. */
  traces?: (owner: string, continuationId: string) => Promise<TurnTrace[]>;
  /**
   * Refuses (throws ModelNotAllowedError) a model the caller may not choose:
   * one allowed_models does not list, or, from someone who is not an
   * administrator, any but the configured one. The agent checks a session's
   * model again at each message, so a session saved without this check
   * still runs only on allowed models.
   */
  checkModel?: (name: string | undefined, caller: Principal) => void;
  /** Checks a persona choice; without it no persona can be chosen. */
  checkPersona?: PersonaCheck;
  /** The add-on's actuation options, which a session's policy can only narrow; actuation off when absent. */
  ceiling?: ActuationCeiling;
}

/** How many of the newest turns get their traces in get_session. */
const TRACED_TURNS = 3;

const Trace = z.object({
  step: z.number().int(),
  model: z.string(),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  tokens_thinking: z.number().int(),
  duration_ms: z.number(),
  finish_reason: z.string(),
  tool_calls: z.array(z.string()),
});

const Output = z.object({
  session: z.object({
    session_id: z.string(),
    status: z.enum(["active", "ended", "expired"]).describe("An ended or expired session takes no more messages; start a new one."),
    created_at: z.string(),
    updated_at: z.string(),
    last_activity_at: z.string(),
    ended_at: z.string().nullable(),
    end_reason: z.string().nullable(),
    model: ModelInUseWire,
    budgets: BudgetsWire,
    policy: PolicyOutWire,
    preferences: PreferencesWire,
    memory: z
      .object({
        rolling_summary_chars: z.number().int(),
        facts: z.number().int(),
        pins: z.number().int(),
        last_k: z.number().int(),
      })
      .describe("Sizes of what the session remembers."),
    model_label: z.string().describe("The model that answers when the session names none; a demo model says so."),
    usage: z.object({
      turns: z.number().int(),
      steps: z.number().int(),
      tool_calls: z.number().int(),
      tokens_in: z.number().int(),
      tokens_out: z.number().int(),
      tokens_thinking: z.number().int(),
      by_model: z
        .array(
          z.object({
            model: z.string().describe("provider/model"),
            turns: z.number().int(),
            model_calls: z.number().int(),
            steps: z.number().int(),
            tool_calls: z.number().int(),
            tokens_in: z.number().int(),
            tokens_out: z.number().int(),
            tokens_thinking: z.number().int(),
          }),
        )
        .describe("The same totals per model, since a turn may use another model."),
    }),
    recent_turns: z
      .array(z.object({ continuation_id: z.string(), status: z.string(), traces: z.array(Trace) }))
      .describe("The newest turns with one trace per model call: tokens, time, finish reason and the tools it asked for."),
    continuations: z.array(ContinuationWire).describe("Every turn still kept, oldest first, with its current status."),
    open_continuations: z.array(z.string()),
    stream_url: z.string().describe("GET it (SSE, same bearer token) to watch this session's turns live."),
  }),
});

/** `get_session`: a summary of one of the caller's sessions. */
export function createGetSessionTool(deps: SessionToolDeps): ToolSpec {
  return defineTool({
    name: "get_session",
    title: "Get a session",
    description:
      "One of your sessions: status, settings, memory sizes, usage, and each continuation with its status.",
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
          model: modelToWire(s.model, deps.configuredModel?.()),
          budgets: budgetsToWire(s.budgets),
          policy: policyToWire(s.policy, deps.ceiling),
          preferences: preferencesToWire(s.preferences),
          memory: {
            rolling_summary_chars: s.memorySizes.rollingSummaryChars,
            facts: s.memorySizes.facts,
            pins: s.memorySizes.pins,
            last_k: s.memorySizes.lastK,
          },
          model_label: s.model.name ? `${s.model.provider ?? "configured provider"} ${s.model.name}` : (deps.modelLabel?.() ?? "the add-on's model"),
          usage: {
            turns: s.stats.turns,
            steps: s.stats.steps,
            tool_calls: s.stats.toolCalls,
            tokens_in: s.stats.tokensIn,
            tokens_out: s.stats.tokensOut,
            tokens_thinking: s.stats.tokensThinking,
            by_model: Object.entries(s.stats.byModel).map(([model, m]) => ({
              model,
              turns: m.turns,
              model_calls: m.modelCalls,
              steps: m.steps,
              tool_calls: m.toolCalls,
              tokens_in: m.tokensIn,
              tokens_out: m.tokensOut,
              tokens_thinking: m.tokensThinking,
            })),
          },
          recent_turns: await recentTurns(deps, ctx.principal.id, continuations.slice(-TRACED_TURNS)),
          continuations,
          open_continuations: s.openContinuations,
          // The same path the agent tools give; the sessions folder does not reach into theirs.
          stream_url: `/events/${s.id}`,
        },
      });
    },
  });
}

async function recentTurns(deps: SessionToolDeps, owner: string, turns: { continuation_id: string; status: string }[]) {
  if (!deps.traces) return [];
  return Promise.all(
    turns.map(async (t) => ({
      continuation_id: t.continuation_id,
      status: t.status,
      traces: (await deps.traces!(owner, t.continuation_id).catch(() => [])).map((x) => ({
        step: x.step,
        model: x.model,
        tokens_in: x.tokensIn,
        tokens_out: x.tokensOut,
        tokens_thinking: x.tokensThinking,
        duration_ms: x.durationMs,
        finish_reason: x.finishReason,
        tool_calls: x.toolCalls,
      })),
    })),
  );
}
