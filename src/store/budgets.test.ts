import { describe, expect, it } from "vitest";
import { BUDGET_LIMITS, BudgetsSchema, ContinuationRequestSchema } from "./index.js";

describe("stored budgets", () => {
  it("reads a budget written above its maximum at the maximum, so an old session does not expire every turn at once", () => {
    const budgets = BudgetsSchema.parse({ maxSteps: 4294967296, maxToolCalls: 10_000, maxDurationMs: 3e9, maxTokensPerTurn: 2 ** 53 - 1 });
    expect(budgets).toEqual(BUDGET_LIMITS);
    const request = ContinuationRequestSchema.parse({ message: "hi", maxSteps: 1_000, timeBudgetMs: 3e9 });
    expect(request).toMatchObject({ maxSteps: BUDGET_LIMITS.maxSteps, timeBudgetMs: BUDGET_LIMITS.maxDurationMs });
  });

  it("keeps every duration inside what a Node timer can hold", () => {
    expect(BUDGET_LIMITS.maxDurationMs).toBeLessThan(2 ** 31 - 1);
  });
});
