import { readJournal } from "./journal.js";
import { callModel, primedPrompt, recordModelTurn, recordWrapUp } from "./model-step.js";
import type { WrapUpBudget } from "./records.js";
import { finishedAnswer, replay, type ReplayState } from "./replay.js";
import { budgetNote, exhaustedBudget, type TurnBudgets } from "./stop-conditions.js";
import { answerCalls, deliverManifest, refuseCalls } from "./tool-step.js";
import { JournalWriteError, afterCalls, completed, guardedJournal, stoppedOutcome, type RunTurnOptions, type Turn, type TurnOutcome } from "./turn.js";

export type { LoopEvent, RunTurnOptions, TurnOutcome } from "./turn.js";

/**
 * One turn: a loop over model steps, driven by stop conditions. It starts
 * from whatever the journal already holds, so a resume never asks for a
 * journaled model turn again and never repeats an action. A journal write
 * that fails ends the turn `failed` with what it had spent so far.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnOutcome> {
  const journal = guardedJournal(options.journal);
  const state = replay(await readJournal(journal));
  const turn: Turn = {
    options,
    journal,
    state,
    counters: state.counters,
    items: [...state.items],
    head: options.prompt,
    toolMap: new Map(options.tools.map((t) => [t.declaration.name, t])),
    // Calls are aborted by a cancel or a hard shutdown; which one decides how the turn ends.
    stop: options.interrupt ? AbortSignal.any([options.signal, options.interrupt]) : options.signal,
    emit: options.emit ?? (() => {}),
  };
  try {
    turn.head = await primedPrompt(options, state, journal);
    return await steps(turn);
  } catch (err) {
    if (err instanceof JournalWriteError) return { status: "failed", error: err.toTurnError(), counters: turn.counters };
    throw err;
  }
}

async function steps(turn: Turn): Promise<TurnOutcome> {
  const { state, counters } = turn;
  const budgets = turn.options.budgets;
  const done = finishedAnswer(state);
  if (done) return completed(turn, done.text, ...replayedWrapUp(state, budgets));
  if (state.last && state.open.length) {
    turn.emit({ type: "progress", message: "Finishing the tool calls of the last step" });
    await answerCalls(turn, { step: state.last.step, calls: state.last.turn.toolCalls, open: state.open, answered: state.answered });
    const stopped = afterCalls(turn);
    if (stopped) return stopped;
  }

  // A wrap-up journaled for a step not yet answered is still due.
  let wrapUp = state.wrapUp && state.wrapUp.step > (state.last?.step ?? 0) ? state.wrapUp.budget : undefined;
  for (;;) {
    const halt = stoppedOutcome(turn);
    if (halt) return halt;
    const budget = exhaustedBudget({ counters, budgets });
    if (budget === "time") return { status: "expired", note: budgetNote("time", budgets), counters };
    const step = counters.steps + 1;
    if (budget && !wrapUp) await recordWrapUp(turn, step, (wrapUp = budget));
    deliverManifest(turn);
    turn.emit({ type: "progress", message: wrapUp ? "Writing the best answer from what was found" : `Step ${step}: thinking` });

    const result = await callModel(turn, wrapUp);
    if ("status" in result) return result;
    await recordModelTurn(turn, step, result);

    if (result.finishReason === "safety") return completed(turn, result.refusal ?? "The model declined to answer this request.", "The model refused to answer (model_refused).");
    if (result.toolCalls.length === 0 || wrapUp) return completed(turn, result.text, wrapUp ? budgetNote(wrapUp, budgets) : undefined, wrapUp);

    const open = result.toolCalls.map((call, index) => ({ index, call }));
    if (exhaustedBudget({ counters, budgets, pendingToolCalls: open.length }) === "tool_calls") {
      await refuseCalls(turn, step, open);
      await recordWrapUp(turn, step + 1, (wrapUp = "tool_calls"));
      continue;
    }
    await answerCalls(turn, { step, calls: result.toolCalls, open, answered: new Map() });
    const stopped = afterCalls(turn);
    if (stopped) return stopped;
  }
}

/** For a journaled wrap-up answer: the note and the budget that ended the turn. */
function replayedWrapUp(state: ReplayState, budgets: TurnBudgets): [note?: string, budget?: WrapUpBudget] {
  const last = state.last!;
  let budget: WrapUpBudget | undefined;
  if (state.wrapUp?.step === last.step) budget = state.wrapUp.budget;
  else if (last.wrapUp) {
    // Older journals marked the wrap-up call itself; its budget is the one spent by then.
    const spent = exhaustedBudget({ counters: state.counters, budgets });
    budget = spent === "time" ? undefined : spent;
  }
  return budget ? [budgetNote(budget, budgets), budget] : [];
}
