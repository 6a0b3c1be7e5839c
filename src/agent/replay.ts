import type { ConversationItem, ModelTurn, ToolCall, ToolResult } from "../models/index.js";
import type { Usage } from "../store/index.js";
import type { ApprovalDecisionDetail, ApprovalRequestDetail, JournalRecord, ModelResponseDetail, SummaryDetail, WrapUpDetail } from "./records.js";

/** An action's journaled approval: asked, and answered once a decision is journaled. */
export interface JournaledApproval {
  request: ApprovalRequestDetail;
  decision?: ApprovalDecisionDetail;
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
  /**
   * The journaled intent, when there is one: the call may have run. Its
   * `action` says whether it could have changed the home, as decided when
   * it was made, whatever tools the turn has now.
   */
  intent?: { action: boolean };
  /** Set when a person was asked about this call; the decision once they answered. */
  approval?: JournaledApproval;
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
  /** The journaled wrap-up: the step that was (or is to be) the last call without tools, and why. */
  wrapUp: WrapUpDetail | undefined;
}

/** A turn's usage as the store keeps it, from its counters; `model` is `provider/model`. */
export function usageOf(counters: TurnCounters, model?: string): Usage {
  const { steps, toolCalls, tokensIn, tokensOut, tokensThinking } = counters;
  return { steps, modelCalls: steps, toolCalls, tokensIn, tokensOut, tokensThinking, ...(model ? { model } : {}) };
}

/**
 * A turn's usage with its memory fold added: one more model call, and the
 * tokens it spent, so the totals agree with the calls a person sees listed.
 */
export function withFold(usage: Usage, fold: SummaryDetail): Usage {
  const u = fold.usage;
  return { ...usage, modelCalls: usage.modelCalls + 1, tokensIn: usage.tokensIn + (u?.inputTokens ?? 0), tokensOut: usage.tokensOut + (u?.outputTokens ?? 0), tokensThinking: usage.tokensThinking + (u?.thinkingTokens ?? 0) };
}

export const emptyCounters = (): TurnCounters => ({ steps: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, tokensThinking: 0, activeMs: 0 });

/** Rebuilds a turn from its parsed step log (`parseJournal`); plans, summaries and steps of older model turns count only as they should. */
export function replay(records: readonly JournalRecord[]): ReplayState {
  const counters = emptyCounters();
  const items: ConversationItem[] = [];
  let last: ModelResponseDetail | undefined;
  let intents = new Map<number, { action: boolean }>();
  let answered = new Map<number, ToolResult>();
  let approvals = new Map<number, JournaledApproval>();
  let retrieval: string | undefined;
  let wrapUp: WrapUpDetail | undefined;

  const closeStep = () => {
    if (!last || last.turn.toolCalls.length === 0) return;
    const results = last.turn.toolCalls.map((_, i) => answered.get(i)).filter((r): r is ToolResult => r !== undefined);
    if (results.length === last.turn.toolCalls.length) items.push({ type: "tool_results", results });
  };

  for (const record of records) {
    switch (record.type) {
      case "retrieval":
        retrieval ??= record.detail.text;
        break;
      case "wrap_up":
        wrapUp ??= record.detail;
        break;
      case "model_response":
        closeStep();
        last = record.detail;
        intents = new Map();
        answered = new Map();
        approvals = new Map();
        items.push({ type: "model", turn: last.turn });
        counters.steps += 1;
        counters.tokensIn += last.usage.inputTokens;
        counters.tokensOut += last.usage.outputTokens;
        counters.tokensThinking += last.usage.thinkingTokens;
        counters.activeMs += last.durationMs;
        break;
      case "tool_call":
        if (record.detail.step !== last?.step) break;
        intents.set(record.detail.index, { action: record.detail.action });
        counters.toolCalls += 1;
        break;
      case "tool_result":
        if (record.detail.step !== last?.step) break;
        answered.set(record.detail.index, record.detail.result);
        counters.activeMs += record.detail.durationMs;
        break;
      case "approval_request":
        if (record.detail.step === last?.step) approvals.set(record.detail.index, { request: record.detail });
        break;
      case "approval_decision": {
        const asked = [...approvals.values()].find((a) => a.request.id === record.detail.approvalId);
        if (asked && !asked.decision) asked.decision = record.detail;
        break;
      }
      case "summary":
      case "persona":
        break;
    }
  }

  // The wrap-up answer is the turn's last word, even if the model asked for tools it was not offered.
  const calls: ToolCall[] = last && !isWrapUpStep(last, wrapUp) ? last.turn.toolCalls : [];
  const open: OpenCall[] = calls
    .map((call, index) => ({ index, call, ...(intents.has(index) ? { intent: intents.get(index)! } : {}), ...(approvals.has(index) ? { approval: approvals.get(index)! } : {}) }))
    .filter((c) => !answered.has(c.index));
  if (open.length === 0) closeStep();
  return { items, counters, last, open, answered, retrieval, wrapUp };
}

function isWrapUpStep(last: ModelResponseDetail, wrapUp: WrapUpDetail | undefined): boolean {
  return last.wrapUp || wrapUp?.step === last.step;
}

/** The turn's answer when the journal already holds it: a last model turn that asked for no tools, or the wrap-up's. */
export function finishedAnswer(state: ReplayState): ModelTurn | undefined {
  const last = state.last;
  if (!last) return undefined;
  return last.turn.toolCalls.length === 0 || isWrapUpStep(last, state.wrapUp) ? last.turn : undefined;
}
