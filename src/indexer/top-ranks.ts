import type { SearchIndex } from "./search-index.js";

/** A document on the page being filled. */
export interface Ranked {
  doc: number;
  score: number;
  /** Name length: shorter names win ties, as they are closer to what was typed. */
  tie: number;
}

/**
 * The order of a search's page, and keeping it: a short array kept sorted
 * by insertion, since a page holds a handful of hits and most candidates
 * lose to its last place at the first comparison.
 */
export class TopRanks {
  constructor(private readonly index: SearchIndex) {}

  /** Higher score first; equal scores: shorter name, then entity id. */
  beats(doc: number, score: number, b: Ranked): boolean {
    if (score !== b.score) return score > b.score;
    const tie = this.index.tieOf(doc);
    if (tie !== b.tie) return tie < b.tie;
    return this.index.entityIdOf(doc) < this.index.entityIdOf(b.doc);
  }

  insert(top: Ranked[], item: Ranked, limit: number): void {
    let i = top.length;
    while (i > 0 && this.beats(item.doc, item.score, top[i - 1]!)) i--;
    if (i >= limit) return;
    top.splice(i, 0, item);
    if (top.length > limit) top.pop();
  }
}
