import { describe, expect, it } from "vitest";
import { outputBudget } from "./output-budget.js";

describe("outputBudget: prompt plus max_tokens stays inside the window", () => {
  it.each([4_096, 8_192, 16_384, 40_960, 131_072, 1_048_576])("window %i: a prompt at the limit still leaves a useful answer that fits, with room for the estimate's error", (window) => {
    const budget = outputBudget({ window, cap: 8_192 });
    const max = budget.maxTokensFor(budget.promptLimit)!;
    expect(max).toBeGreaterThanOrEqual(256);
    // Even if the real prompt is a quarter larger than estimated, prompt plus max_tokens fits.
    expect(Math.ceil(budget.promptLimit * 1.25) + max).toBeLessThanOrEqual(window);
  });

  it("keeps the cap on big windows and shares a small one", () => {
    expect(outputBudget({ window: 1_048_576, cap: 8_192 }).maxTokensFor(3_000)).toBe(8_192);
    expect(outputBudget({ window: 8_192, cap: 8_192 }).maxTokensFor(3_000)).toBe(8_192 - 3_750 - 64);
  });

  it("says when no useful answer fits", () => {
    expect(outputBudget({ window: 4_096, cap: 8_192 }).maxTokensFor(3_500)).toBeUndefined();
  });
});
