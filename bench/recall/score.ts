import type { Request } from "./corpus.js";

/** Where the best-placed target of a request came: 1 for first, Infinity when it is not in the answer. */
export function rankOf(request: Request, answer: string[]): number {
  let best = Infinity;
  for (const t of request.targets) {
    const i = answer.indexOf(t);
    if (i >= 0 && i + 1 < best) best = i + 1;
  }
  return best;
}

export interface Recall {
  n: number;
  at1: number;
  at5: number;
  at10: number;
}

/** Share of requests whose target is first, in the top 5, in the top 10. */
export function recallOf(ranks: number[]): Recall {
  const n = ranks.length;
  const share = (k: number) => (n ? ranks.filter((r) => r <= k).length / n : 0);
  return { n, at1: share(1), at5: share(5), at10: share(10) };
}
