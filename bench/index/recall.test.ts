import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateHouse, type House } from "@ha-agent/ha-simulator";
import type { HomeIndex } from "../../src/indexer/home-index.js";
import { startLiveIndex, type LiveIndex } from "../../test/support/indexer/live-index.js";
import { SubstringScan } from "./baseline.js";
import { QUERY_SEED, querySetFor } from "./query-set.js";
import { recallAtK, type LabelledQuery } from "./recall.js";

describe("recallAtK", () => {
  it("credits a query with many expected ids once k of them are in the top k", () => {
    const qs: LabelledQuery[] = [
      { query: "a", kind: "x", expected: ["1", "2", "3", "4", "5", "6", "7"] },
      { query: "b", kind: "x", expected: ["9"] },
    ];
    const got: Record<string, string[]> = { a: ["1", "2", "3", "4", "5"], b: ["8", "7"] };
    const r = recallAtK(qs, (q) => got[q]!);
    expect(r.recall).toBe(0.5);
    expect(r.misses).toEqual([{ query: "b", got: ["8", "7"] }]);
  });
});

describe("search recall on the generated home (2,000 entities)", () => {
  let house: House;
  let live: LiveIndex | undefined;
  let index: HomeIndex;
  beforeAll(async () => {
    house = generateHouse({ entities: 2000, seed: QUERY_SEED });
    live = await startLiveIndex(house);
    index = live.index;
  });
  afterAll(() => live?.close());

  it("has at least 60 labelled queries covering every kind of query", () => {
    const qs = querySetFor(house);
    expect(qs.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(qs.map((q) => q.kind));
    for (const k of ["name", "area alias", "floor", "typo", "manufacturer", "label", "domain"]) expect(kinds).toContain(k);
  });

  it("finds the expected entities in the top 5 for at least 95% of the set, far above a substring scan", () => {
    const qs = querySetFor(house);
    const ours = recallAtK(qs, (q) => index.search(q, { limit: 5 }).map((r) => r.entityId));
    const scan = new SubstringScan(index.query({}));
    const naive = recallAtK(qs, (q) => scan.search(q, 5));
    expect(ours.recall, `missed: ${JSON.stringify(ours.misses)}`).toBeGreaterThanOrEqual(0.95);
    expect(naive.recall).toBeLessThan(ours.recall);
  });
});
