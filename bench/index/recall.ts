/** A query and the entity ids a good answer puts in its first five. */
export interface LabelledQuery {
  query: string;
  /** What the query exercises: name, area alias, floor, typo, manufacturer, label, domain word… */
  kind: string;
  expected: string[];
}

/**
 * Share of the expected ids found in the top k, per query, averaged. A query
 * with more than k expected ids counts as complete when k of them are there.
 */
export function recallAtK(queries: LabelledQuery[], search: (q: string) => string[], k = 5): { recall: number; misses: { query: string; got: string[] }[] } {
  let sum = 0;
  const misses: { query: string; got: string[] }[] = [];
  for (const q of queries) {
    const got = search(q.query).slice(0, k);
    const hit = q.expected.filter((id) => got.includes(id)).length;
    const share = hit / Math.min(k, q.expected.length);
    sum += share;
    if (share < 1) misses.push({ query: q.query, got });
  }
  return { recall: queries.length ? sum / queries.length : 0, misses };
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  const i = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, i)]!;
}
