import type { ConversationItem, ModelTurn, ToolCall, ToolResult } from "../models/index.js";
import {
  ModelResponseDetailSchema,
  ToolCallDetailSchema,
  ToolResultDetailSchema,
  type ModelResponseDetail,
} from "./records.js";

/** A journaled line as the loop reads it back (artifact-backed details already resolved). */
export interface JournalEntry {
  type: string;
  detail: unknown;
}

/** Totals counted from the journal, so a resume continues the budgets instead of resetting them. */
export interface TurnCounters {
  steps: number;
  toolCalls: number;
  tokensIn: number;
  tokensOut: number;
  tokensThinking: number;
  /** Model and tool time spent so far; the time budget counts this, not the downtime of a crash. */
  activeMs: number;
}

/** A tool call of the last model turn that has no journaled result yet. */
export interface OpenCall {
  index: number;
  call: ToolCall;
  /** An intent was journaled: the call may have run. For an action that means its outcome is unknown. */
  intentWritten: boolean;
}

export interface ReplayState {
  /** The turn's own conversation so far: model turns and tool results, in order. */
  items: ConversationItem[];
  counters: TurnCounters;
  /** The last journaled model response, if any. */
  last: ModelResponseDetail | undefined;
  /** Calls of `last` still to answer, by index. Empty when `last` asked for none or all are answered. */
  open: OpenCall[];
  /** Results already journaled for `last`'s calls, by index. */
  answered: Map<number, ToolResult>;
  /** The retrieval snippets the turn was primed with, as first delivered. */
  retrieval: string | undefined;
}

export const emptyCounters = (): TurnCounters => ({ steps: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, tokensThinking: 0, activeMs: 0 });

/**
 * Rebuilds a turn from its step log. Lines of other types (plans, retrievals,
 * summaries) are skipped; a line that does not parse is skipped too, because
 * the store has already checked each line's checksum and such a line can
 * only come from a newer program, whose steps this one cannot continue.
 */
export function replay(entries: JournalEntry[]): ReplayState {
  const counters = emptyCounters();
  const items: ConversationItem[] = [];
  let last: ModelResponseDetail | undefined;
  let intents = new Map<number, ToolCall>();
  let answered = new Map<number, ToolResult>();
  let retrieval: string | undefined;

  const closeStep = () => {
    if (!last || last.turn.toolCalls.length === 0) return;
    const results = last.turn.toolCalls.map((_, i) => answered.get(i)).filter((r): r is ToolResult => r !== undefined);
    if (results.length === last.turn.toolCalls.length) items.push({ type: "tool_results", results });
  };

  for (const entry of entries) {
    if (entry.type === "retrieval") {
      const text = (entry.detail as { text?: unknown } | null)?.text;
      if (retrieval === undefined && typeof text === "string") retrieval = text;
    } else if (entry.type === "model_response") {
      const parsed = ModelResponseDetailSchema.safeParse(entry.detail);
      if (!parsed.success) continue;
      closeStep();
      last = parsed.data;
      intents = new Map();
      answered = new Map();
      items.push({ type: "model", turn: last.turn });
      counters.steps += 1;
      counters.tokensIn += last.usage.inputTokens;
      counters.tokensOut += last.usage.outputTokens;
      counters.tokensThinking += last.usage.thinkingTokens;
      counters.activeMs += last.durationMs;
    } else if (entry.type === "tool_call") {
      const parsed = ToolCallDetailSchema.safeParse(entry.detail);
      if (!parsed.success || parsed.data.step !== last?.step) continue;
      intents.set(parsed.data.index, parsed.data.call);
      counters.toolCalls += 1;
    } else if (entry.type === "tool_result") {
      const parsed = ToolResultDetailSchema.safeParse(entry.detail);
      if (!parsed.success || parsed.data.step !== last?.step) continue;
      answered.set(parsed.data.index, parsed.data.result);
      counters.activeMs += parsed.data.durationMs;
    }
  }

  const calls: ToolCall[] = last?.turn.toolCalls ?? [];
  const open: OpenCall[] = calls
    .map((call, index) => ({ index, call, intentWritten: intents.has(index) }))
    .filter((c) => !answered.has(c.index));
  if (open.length === 0) closeStep();
  return { items, counters, last, open, answered, retrieval };
}

/** The turn's answer when the journal already holds it: a last model turn that asked for no tools. */
export function finishedAnswer(state: ReplayState): ModelTurn | undefined {
  return state.last && state.last.turn.toolCalls.length === 0 ? state.last.turn : undefined;
}
