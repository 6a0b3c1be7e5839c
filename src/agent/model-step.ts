import { ModelError, type ConversationItem, type GenerateRequest, type GenerateResult, type ModelFacts } from "../models/index.js";
import { alternating, primingIntoSystem } from "./conversation.js";
import { emptyAnswerError, finishName, isEmptyAnswer, withEmptyAnswerNote } from "./empty-answer.js";
import { fitRequest } from "./fit.js";
import { outputBudget } from "./output-budget.js";
import { composeSystem } from "./prompt.js";
import type { ModelResponseDetail, WrapUpBudget } from "./records.js";
import { budgetNote } from "./stop-conditions.js";
import { stoppedOutcome, type Turn, type TurnOutcome } from "./turn.js";

/**
 * One streamed model call over the fitted request, in the shape every chat
 * template accepts (`alternating`), with an output budget that fits the
 * window next to the prompt. The wrap-up call goes without tools. An answer
 * with neither text nor a tool call is asked for once more, with a note to
 * the model; a second empty one fails the turn. A stop or a failure comes
 * back as the turn's outcome.
 */
export async function callModel(turn: Turn, wrapUp: WrapUpBudget | undefined): Promise<GenerateResult | TurnOutcome> {
  const { options, counters } = turn;
  const { budgets } = options;
  const timeLeft = Math.max(1, budgets.timeBudgetMs - counters.activeMs);
  const timeout = AbortSignal.timeout(timeLeft);
  const system = composeSystem(options.context);
  // A withheld tool is answered if called, but never offered.
  const tools = wrapUp ? [] : options.tools.filter((t) => !t.withheld).map((t) => t.declaration);
  const facts = options.model.facts;
  const budget = outputBudget({ window: facts.contextWindow, cap: options.maxOutputTokens ?? facts.maxOutputTokens });
  const limit = Math.min(budget.promptLimit, budgets.maxTokensPerTurn);
  const fitted = fitRequest({ system, head: turn.head, primed: turn.head.length > options.prompt.length, items: turn.items, tools, limit });
  if (fitted.trimmed.length) turn.emit({ type: "progress", message: `Left out to fit the model's context: ${fitted.trimmed.join(", ")}` });
  const maxOutputTokens = budget.maxTokensFor(fitted.tokens);
  if (maxOutputTokens === undefined) return { status: "failed", error: windowTooSmall(facts, fitted.tokens), counters };
  const primed = primingIntoSystem({ system, conversation: fitted.conversation, priming: turn.head.length > options.prompt.length ? turn.head.at(-2) : undefined });
  const request: GenerateRequest = { system: primed.system, conversation: alternating(primed.conversation), tools, maxOutputTokens };

  let empty: GenerateResult | undefined;
  for (;;) {
    let result: GenerateResult;
    try {
      result = await options.model.generate(empty ? withEmptyAnswerNote(request, empty) : request, {
        signal: AbortSignal.any([turn.stop, timeout]),
        onPartial: (p) => p.text && turn.emit({ type: "partial", text: p.text }),
        deadline: options.clock.now() + timeLeft,
      });
    } catch (err) {
      if (turn.stop.aborted) return stoppedOutcome(turn)!;
      if (timeout.aborted) return { status: "expired", note: budgetNote("time", budgets), counters };
      const error = err instanceof ModelError ? { code: `model_${err.code}`, message: err.message } : { code: "model_error", message: "The model call failed unexpectedly." };
      return { status: "failed", error, counters };
    }
    if (!isEmptyAnswer(result, wrapUp !== undefined)) return result;
    // The empty answer is neither journaled nor sent back; what it cost still counts.
    countSpent(turn, result);
    if (empty) return { status: "failed", error: emptyAnswerError(empty, result), counters };
    empty = result;
    turn.emit({ type: "progress", message: `The model's answer was empty (${finishName(result)}); asking once more` });
  }
}

function countSpent(turn: Turn, result: GenerateResult): void {
  const { counters } = turn;
  counters.tokensIn += result.usage.inputTokens;
  counters.tokensOut += result.usage.outputTokens;
  counters.tokensThinking += result.usage.thinkingTokens;
  counters.activeMs += result.durationMs;
}

/** The failure when the instructions, the tools and the message leave no room for an answer. */
function windowTooSmall(facts: ModelFacts, promptTokens: number): { code: string; message: string } {
  const window = facts.contextWindow.toLocaleString("en-US");
  const source = facts.windowSource ? ` (${facts.windowSource})` : "";
  return {
    code: "model_window_too_small",
    message: `The model's context window of ${window} tokens${source} cannot hold HA Agent's instructions, its tools and the message (about ${promptTokens.toLocaleString("en-US")} tokens) with room for an answer. Raise model_context_tokens (Ollama's num_ctx follows it), or use a model with a larger window.`,
  };
}

/**
 * Counts the model turn, then journals it before anything acts on it. It is
 * counted first so that the turn's usage includes it even if the journal
 * write fails: those tokens were spent.
 */
export async function recordModelTurn(turn: Turn, step: number, result: GenerateResult): Promise<void> {
  const { counters } = turn;
  counters.steps += 1;
  counters.tokensIn += result.usage.inputTokens;
  counters.tokensOut += result.usage.outputTokens;
  counters.tokensThinking += result.usage.thinkingTokens;
  counters.activeMs += result.durationMs;
  const detail: ModelResponseDetail = {
    step,
    turn: result.turn,
    usage: result.usage,
    finishReason: result.finishReason,
    ...(result.refusal ? { refusal: result.refusal } : {}),
    durationMs: result.durationMs,
    wrapUp: false,
  };
  await turn.journal.append({ type: "model_response", detail });
  const asked = result.toolCalls.map((c) => c.name);
  turn.emit({
    type: "step",
    step: { type: "model_response", number: step, detail: { step, text: result.text, toolCalls: asked, finishReason: result.finishReason } },
    message: asked.length ? `Step ${step}: asked for ${asked.join(", ")}` : `Step ${step}: answered`,
  });
  turn.items.push({ type: "model", turn: result.turn });
}

/** Journals that the next call is the last, without tools, and which budget made it so. */
export async function recordWrapUp(turn: Turn, step: number, budget: WrapUpBudget): Promise<void> {
  await turn.journal.append({ type: "wrap_up", detail: { step, budget } });
}

/**
 * The retrieval snippets prime the first call, just before the user's
 * message, where fitting may drop them first; the request moves them to the
 * end of the system text (`primingIntoSystem`), so the model never sees two
 * user messages in a row. They are journaled once, so a resume sends the
 * same prompt.
 */
export async function primedPrompt(options: Turn["options"], state: Turn["state"], journal: Turn["journal"]): Promise<ConversationItem[]> {
  const fresh = options.context.consume("retrieval");
  let text = state.retrieval;
  if (text === undefined && fresh.length && !state.last) {
    text = fresh.join("\n");
    await journal.append({ type: "retrieval", detail: { text } });
  }
  if (text === undefined) return options.prompt;
  return [...options.prompt.slice(0, -1), { type: "user", text }, ...options.prompt.slice(-1)];
}
