import type { HomeIndex } from "../../src/indexer/index.js";
import { startLiveIndex } from "../../test/support/indexer/live-index.js";
import { templateRequests, type Request } from "./corpus.js";
import { HOMES } from "./homes/index.js";
import { WordOverlap } from "./overlap.js";
import { rankOf } from "./score.js";

/** One request of the corpus, with where our answer and the naive one placed its best target (Infinity: not in the first ten). */
export interface Outcome {
  home: string;
  heldOut: boolean;
  request: Request;
  ours: number;
  naive: number;
  answer: string[];
}

/** Our answer for one request, as the tool asks the index: ten results, the area it was said in as a soft preference. */
function ask(index: HomeIndex, r: Request): string[] {
  return index.search(r.text, { limit: 10, ...(r.near ? { nearArea: r.near } : {}) }).map((h) => h.entityId);
}

/** Every request of the corpus (or of one home) asked of a simulated home and of the naive word overlap. */
export async function measure(only?: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const home of HOMES) {
    if (only && home.view.id !== only) continue;
    const live = await startLiveIndex(home.view.house);
    try {
      await live.index.whenIdle();
      const naive = new WordOverlap(live.index.query({}));
      for (const request of [...templateRequests(home.view.id), ...home.hand]) {
        const answer = ask(live.index, request);
        outcomes.push({ home: home.view.id, heldOut: home.heldOut, request, ours: rankOf(request, answer), naive: rankOf(request, naive.search(request.text, 10)), answer });
      }
    } finally {
      await live.close();
    }
  }
  return outcomes;
}
