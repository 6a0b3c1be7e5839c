import type { WrapUpBudget } from "./records.js";
import type { TurnCounters } from "./replay.js";

/** Per-turn limits, as the loop reads them. */
export interface TurnBudgets {
  maxSteps: number;
  maxToolCalls: number;
  /** Input, output and thinking tokens of every model call in the turn. */
  maxTokensPerTurn: number;
  /** Model and tool time the turn may spend, across resumes. */
  timeBudgetMs: number;
}

/** Which budget ended a turn. `time` expires it; the others lead to one last answer without tools. */
export type BudgetName = WrapUpBudget | "time";

export interface StopCheck {
  counters: TurnCounters;
  budgets: TurnBudgets;
  /** Tool calls the model just asked for, not yet counted. */
  pendingToolCalls?: number;
}

/**
 * Stop conditions are plain predicates over what the turn has spent. The
 * first that holds names the budget that ends the turn.
 */
const CONDITIONS: { budget: BudgetName; holds: (c: StopCheck) => boolean }[] = [
  { budget: "time", holds: (c) => c.counters.activeMs >= c.budgets.timeBudgetMs },
  { budget: "tokens", holds: (c) => c.counters.tokensIn + c.counters.tokensOut + c.counters.tokensThinking >= c.budgets.maxTokensPerTurn },
  { budget: "steps", holds: (c) => c.counters.steps >= c.budgets.maxSteps },
  { budget: "tool_calls", holds: (c) => c.counters.toolCalls + (c.pendingToolCalls ?? 0) > c.budgets.maxToolCalls },
];

export function exhaustedBudget(check: StopCheck): BudgetName | undefined {
  return CONDITIONS.find((c) => c.holds(check))?.budget;
}

/** What the turn's note says when a budget ended it. */
export function budgetNote(budget: BudgetName, budgets: TurnBudgets): string {
  switch (budget) {
    case "steps":
      return `Stopped after ${budgets.maxSteps} model steps (max_steps); this is the best answer from what was found.`;
    case "tool_calls":
      return `Stopped before exceeding ${budgets.maxToolCalls} tool calls (max_tool_calls); this is the best answer from what was found.`;
    case "tokens":
      return `Stopped after using ${budgets.maxTokensPerTurn} tokens (max_tokens_per_turn); this is the best answer from what was found.`;
    case "time":
      return `The turn ran out of its ${Math.round(budgets.timeBudgetMs / 1000)} s time budget (time_budget_ms).`;
  }
}
