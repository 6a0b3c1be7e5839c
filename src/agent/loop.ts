import type { Clock } from "../shared/index.js";
import { ModelError, type ConversationItem, type GenerateResult, type ModelClient, type ToolCall, type ToolResult } from "../models/index.js";
import type { AgentTool } from "./agent-tool.js";
import type { ContentProvider } from "./content-provider.js";
import type { TurnJournal } from "./journal.js";
import type { ModelResponseDetail } from "./records.js";
import { finishedAnswer, replay, type OpenCall, type TurnCounters } from "./replay.js";
import { budgetNote, exhaustedBudget, type BudgetName, type TurnBudgets } from "./stop-conditions.js";
import { fitRequest } from "./fit.js";
import { composeSystem } from "./prompt.js";
import { runToolCalls } from "./tool-runner.js";

/** What the loop reports while it works; the runtime adds the session and continuation ids. */
export type LoopEvent =
  | { type: "progress"; message: string }
  | { type: "step"; step: { type: string; detail: unknown } }
  | { type: "partial"; text: string };

export type TurnOutcome =
  | { status: "completed"; text: string; note?: string; budget?: BudgetName; counters: TurnCounters }
  | { status: "expired"; note: string; counters: TurnCounters }
  | { status: "cancelled"; counters: TurnCounters }
  /** Stopped at a step boundary for a shutdown; `resume` continues it. */
  | { status: "interrupted"; counters: TurnCounters }
  | { status: "failed"; error: { code: string; message: string }; counters: TurnCounters };

export interface RunTurnOptions {
  continuationId: string;
  model: ModelClient;
  /** Session registers become the system instruction; consumable ones are delivered once. */
  context: ContentProvider;
  /** What comes before the turn's own steps: remembered messages, then the user's message. */
  prompt: ConversationItem[];
  /** Empty when the turn may not use tools. */
  tools: AgentTool[];
  budgets: TurnBudgets;
  journal: TurnJournal;
  clock: Clock;
  /** Cancellation: final. */
  signal: AbortSignal;
  /** A shutdown: the turn stops at the next step boundary and is left resumable. */
  drain?: AbortSignal;
  /** A shutdown past its deadline: the turn stops now, mid-step, and is left resumable. */
  interrupt?: AbortSignal;
  describeUnknownOutcome(call: OpenCall["call"]): Promise<string>;
  emit?(event: LoopEvent): void;
  maxOutputTokens?: number;
}

/**
 * One turn: a do…while over model steps, driven by stop conditions. It
 * starts from whatever the journal already holds, so a resume never asks
 * for a journaled model turn again and never repeats an action.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnOutcome> {
  const { journal, clock, budgets } = options;
  const state = replay(await journal.read());
  const counters = state.counters;
  const items = [...state.items];
  const toolMap = new Map(options.tools.map((t) => [t.declaration.name, t]));
  const emit = options.emit ?? (() => {});
  // Calls are aborted by a cancel or a hard shutdown; which one decides how the turn ends.
  const stop = options.interrupt ? AbortSignal.any([options.signal, options.interrupt]) : options.signal;
  const stopped = (): TurnOutcome | undefined =>
    options.signal.aborted ? { status: "cancelled", counters } : options.interrupt?.aborted || options.drain?.aborted ? { status: "interrupted", counters } : undefined;

  const head = await primedPrompt();
  const done = finishedAnswer(state);
  if (done) return completed(done.text, state.last!.wrapUp ? lastBudget(counters, budgets) : undefined);
  if (state.last && state.open.length) {
    emit({ type: "progress", message: "Finishing the tool calls of the last step" });
    await answerCalls(state.last.step, state.last.turn.toolCalls, state.open, state.answered);
    if (stop.aborted) return stopped()!;
  }

  // A journaled refusal of calls over the tool-call budget means the wrap-up was already due.
  let wrapUp: BudgetName | undefined = [...state.answered.values()].some(isBudgetRefusal) ? "tool_calls" : undefined;
  for (;;) {
    const halt = stopped();
    if (halt) return halt;
    const budget = exhaustedBudget({ counters, budgets });
    if (budget === "time") return { status: "expired", note: budgetNote("time", budgets), counters };
    wrapUp ??= budget;
    const step = counters.steps + 1;
    deliverManifest();
    emit({ type: "progress", message: wrapUp ? "Writing the best answer from what was found" : `Step ${step}: thinking` });

    const called = await callModel(wrapUp);
    if ("status" in called) return called;
    const result = called;

    await recordModelTurn(step, result, wrapUp !== undefined);

    if (result.finishReason === "safety") return completed(result.refusal ?? "The model declined to answer this request.", "The model refused to answer (model_refused).");
    if (result.toolCalls.length === 0 || wrapUp) return completed(result.text, wrapUp ? budgetNote(wrapUp, budgets) : undefined, wrapUp);

    const open = result.toolCalls.map((call, index) => ({ index, call, intentWritten: false }));
    if (exhaustedBudget({ counters, budgets, pendingToolCalls: open.length }) === "tool_calls") {
      wrapUp = "tool_calls";
      await refuseCalls(step, open);
      continue;
    }
    await answerCalls(step, result.toolCalls, open, new Map());
    if (stop.aborted) return stopped()!;
  }

  /** Journals the model turn before anything acts on it, then counts it. */
  async function recordModelTurn(step: number, result: GenerateResult, wrapUp: boolean): Promise<void> {
    const detail: ModelResponseDetail = {
      step,
      turn: result.turn,
      usage: result.usage,
      finishReason: result.finishReason,
      ...(result.refusal ? { refusal: result.refusal } : {}),
      durationMs: result.durationMs,
      wrapUp,
    };
    await journal.append({ type: "model_response", detail });
    emit({ type: "step", step: { type: "model_response", detail: { step, text: result.text, toolCalls: result.toolCalls.map((c) => c.name), finishReason: result.finishReason } } });
    counters.steps += 1;
    counters.tokensIn += result.usage.inputTokens;
    counters.tokensOut += result.usage.outputTokens;
    counters.tokensThinking += result.usage.thinkingTokens;
    counters.activeMs += result.durationMs;
    items.push({ type: "model", turn: result.turn });
  }

  /** One streamed model call over the fitted request; a stop or a failure comes back as the turn's outcome. */
  async function callModel(wrapUp: BudgetName | undefined): Promise<GenerateResult | TurnOutcome> {
    const timeLeft = Math.max(1, budgets.timeBudgetMs - counters.activeMs);
    const timeout = AbortSignal.timeout(timeLeft);
    const system = composeSystem(options.context);
    const tools = wrapUp ? [] : options.tools.map((t) => t.declaration);
    const facts = options.model.facts;
    const limit = Math.min(facts.contextWindow - (options.maxOutputTokens ?? facts.maxOutputTokens), budgets.maxTokensPerTurn);
    const fitted = fitRequest({ system, head, primed: head.length > options.prompt.length, items, tools, limit });
    if (fitted.trimmed.length) emit({ type: "progress", message: `Left out to fit the model's context: ${fitted.trimmed.join(", ")}` });
    try {
      return await options.model.generate(
        { system, conversation: fitted.conversation, tools, maxOutputTokens: options.maxOutputTokens },
        { signal: AbortSignal.any([stop, timeout]), onPartial: (p) => p.text && emit({ type: "partial", text: p.text }), deadline: clock.now() + timeLeft },
      );
    } catch (err) {
      if (stop.aborted) return stopped()!;
      if (timeout.aborted) return { status: "expired", note: budgetNote("time", budgets), counters };
      const error = err instanceof ModelError ? { code: `model_${err.code}`, message: err.message } : { code: "model_error", message: "The model call failed unexpectedly." };
      return { status: "failed", error, counters };
    }
  }

  async function answerCalls(step: number, calls: readonly ToolCall[], open: OpenCall[], answered: Map<number, ToolResult>): Promise<void> {
    emit({ type: "progress", message: `Step ${step}: calling ${open.map((c) => c.call.name).join(", ")}` });
    const started = clock.now();
    const results = await runToolCalls({
      continuationId: options.continuationId,
      step,
      calls: open,
      tools: toolMap,
      journal,
      signal: stop,
      clock,
      describeUnknownOutcome: options.describeUnknownOutcome,
      onResult: (result) => emit({ type: "step", step: { type: "tool_result", detail: { step, name: result.name, isError: result.isError } } }),
    });
    counters.toolCalls += open.filter((c) => !c.intentWritten).length;
    counters.activeMs += Math.max(0, clock.now() - started);
    pushResults(calls, new Map([...answered, ...results]));
  }

  /** Every call of a model turn gets an answer, or the next request would be malformed. */
  async function refuseCalls(step: number, open: OpenCall[]): Promise<void> {
    const results = new Map<number, ToolResult>();
    for (const { index, call } of open) {
      const result: ToolResult = { callId: call.id, name: call.name, output: { error: { code: BUDGET_REFUSAL, message: `Not run: the turn may make at most ${budgets.maxToolCalls} tool calls. Answer with what you have.` } }, isError: true };
      await journal.append({ type: "tool_result", detail: { step, index, result, durationMs: 0 } });
      results.set(index, result);
    }
    pushResults(open.map((c) => c.call), results);
  }

  /** Results wait in the ToolCallManifest register until the next model call takes them. */
  function pushResults(calls: readonly ToolCall[], results: Map<number, ToolResult>): void {
    calls.forEach((call, i) => {
      const r = results.get(i);
      if (r) options.context.add("tool_call_manifest", { callId: r.callId, name: r.name, params: call.args, output: r.output, isError: r.isError });
    });
  }

  function deliverManifest(): void {
    const manifest = options.context.consume("tool_call_manifest");
    if (manifest.length) items.push({ type: "tool_results", results: manifest.map((m) => ({ callId: m.callId, name: m.name, output: m.output as ToolResult["output"], isError: m.isError })) });
  }

  /**
   * The retrieval snippets prime the first call, just before the user's
   * message. They are journaled once, so a resume sends the same prompt.
   */
  async function primedPrompt(): Promise<ConversationItem[]> {
    const fresh = options.context.consume("retrieval");
    let text = state.retrieval;
    if (text === undefined && fresh.length && !state.last) {
      text = fresh.join("\n");
      await journal.append({ type: "retrieval", detail: { text } });
    }
    if (text === undefined) return options.prompt;
    return [...options.prompt.slice(0, -1), { type: "user", text }, ...options.prompt.slice(-1)];
  }

  function completed(text: string, note?: string, budget?: BudgetName): TurnOutcome {
    return { status: "completed", text, counters, ...(note ? { note } : {}), ...(budget ? { budget } : {}) };
  }
}

const BUDGET_REFUSAL = "budget_exhausted";

function isBudgetRefusal(result: ToolResult): boolean {
  const output = result.output as { error?: { code?: unknown } } | null;
  return result.isError && typeof output === "object" && output?.error?.code === BUDGET_REFUSAL;
}

/** On a replayed wrap-up, say which budget it was for. */
function lastBudget(counters: TurnCounters, budgets: TurnBudgets): string | undefined {
  const budget = exhaustedBudget({ counters, budgets });
  return budget ? budgetNote(budget, budgets) : undefined;
}
