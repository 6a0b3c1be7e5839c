import { beforeAll, describe, expect, it } from "vitest";
import { HOMES } from "./homes/index.js";
import { measure, type Outcome } from "./measure.js";
import { recallOf } from "./score.js";

describe("recall on the spoken-request corpus", () => {
  let outcomes: Outcome[];
  beforeAll(async () => {
    outcomes = await measure();
  }, 60_000);

  it("has at least 500 requests over at least five homes, in several languages and scripts", () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(500);
    expect(new Set(outcomes.map((o) => o.home)).size).toBeGreaterThanOrEqual(5);
    const languages = new Set(HOMES.map((h) => h.view.language));
    for (const l of ["en", "pl", "ru", "zh-cn"]) expect(languages).toContain(l);
    for (const kind of ["command", "question", "underspecified"]) expect(outcomes.some((o) => o.request.kind === kind)).toBe(true);
  });

  for (const part of ["tuned", "held out"] as const) {
    it(`finds the target in the top 5 for at least 93% of the ${part} part, and for at least 85% of each kind of request`, () => {
      const mine = outcomes.filter((o) => o.heldOut === (part === "held out"));
      const all = recallOf(mine.map((o) => o.ours));
      expect(all.at5, part).toBeGreaterThanOrEqual(0.93);
      expect(all.at1, part).toBeGreaterThanOrEqual(0.85);
      for (const kind of ["command", "question", "underspecified"] as const) {
        const r = recallOf(mine.filter((o) => o.request.kind === kind).map((o) => o.ours));
        expect(r.at5, `${part}, ${kind}`).toBeGreaterThanOrEqual(0.85);
      }
      expect(recallOf(mine.map((o) => o.naive)).at5).toBeLessThan(all.at5);
    });
  }
});
