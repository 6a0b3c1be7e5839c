import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff.js";

const options = { initialMs: 100, maxMs: 1_000 };

describe("backoffDelay", () => {
  it("doubles per attempt and keeps between half and all of the step", () => {
    expect(backoffDelay(1, options, () => 0)).toBe(50);
    expect(backoffDelay(1, options, () => 1)).toBe(100);
    expect(backoffDelay(2, options, () => 1)).toBe(200);
    expect(backoffDelay(3, options, () => 0)).toBe(200);
    expect(backoffDelay(4, options, () => 1)).toBe(800);
  });

  it("never exceeds maxMs, even after very many attempts", () => {
    expect(backoffDelay(5, options, () => 1)).toBe(1_000);
    expect(backoffDelay(10_000, options, () => 1)).toBe(1_000);
    expect(backoffDelay(10_000, options, () => 0)).toBe(500);
  });

  it("spreads clients out: different random draws give different delays", () => {
    const delays = new Set([0.1, 0.4, 0.7, 0.9].map((r) => backoffDelay(3, options, () => r)));
    expect(delays.size).toBe(4);
  });
});
