import { setBit } from "./doc-bits.js";
import { explainer } from "./explain.js";
import { Expansions } from "./expansions.js";
import { MatchSets } from "./match-sets.js";
import type { SearchContext } from "./search-context.js";
import type { SearchIndex } from "./search-index.js";
import { boundCombinations } from "./search-bounds.js";
import { planSearch, type Plan } from "./search-plan.js";
import type { SearchCost, SearchEngineOptions, SearchHit, SearchRequest } from "./search-types.js";
import { ScoreScratch } from "./score-scratch.js";
import { TopRanks, type Ranked } from "./top-ranks.js";

export type { SearchContext } from "./search-context.js";
export type { SearchCost, SearchEngineOptions, SearchHit, SearchRequest } from "./search-types.js";

/** Requests of more words than this are scored whole: their combinations of words are too many to bound one by one. */
const MAX_BOUNDED_TOKENS = 10;
/** A first batch that needs more combinations than this to fill a page is given up for scoring every candidate. */
const MAX_FIRST_COMBINATIONS = 16;
/** Bounds and scores are products taken in different orders; a bound this close to the last place still gets scored. */
const BOUND_SLACK = 1 + 1e-9;

/**
 * Ranks documents for a request. Each word is scored on its best field in
 * each document (weighted by field, match quality and rarity), the word
 * scores are added, and documents that miss words are pushed down by the
 * square of the share of words they matched. Then the reading of the request
 * shifts close calls: a command prefers what can act, a question about a
 * level prefers what measures it, an action prefers entities in the states
 * it applies to (playing before idle for "pause"), and the area the request
 * was spoken in is preferred when the request names none.
 *
 * Most candidates of a common word ("kitchen" reaches a thousand entities in
 * a big home) cannot reach the top once it holds documents that match every
 * word. So the words' postings are first read into bit sets (MatchSets),
 * the candidates that match the most promising combinations of words are
 * scored, and the rest only where the most their combination can score
 * reaches the last place. Scratch buffers are reused between queries so a
 * search allocates almost nothing.
 */
export class SearchEngine {
  readonly #expansions: Expansions;
  readonly #sets = new MatchSets();
  readonly #ranks: TopRanks;
  readonly #scratch: ScoreScratch;
  /** The documents being scored, and those scored in the first batch, as bit sets. */
  #gate = new Uint32Array(0);
  #done = new Uint32Array(0);
  readonly #bounds = new Float64Array(1 << MAX_BOUNDED_TOKENS);
  readonly #exhaustive: boolean;
  readonly #observe: ((cost: SearchCost) => void) | undefined;

  constructor(
    private readonly index: SearchIndex,
    options: SearchEngineOptions = {},
  ) {
    this.#expansions = new Expansions(index);
    this.#ranks = new TopRanks(index);
    this.#scratch = new ScoreScratch(index, this.#ranks);
    this.#exhaustive = options.exhaustive === true;
    this.#observe = options.observe;
  }

  search(req: SearchRequest, ctx: SearchContext): SearchHit[] {
    const { reading, limit } = req;
    const tokens = reading.tokens.filter((t) => t.weight > 0);
    if (tokens.length === 0 && reading.states.length === 0) return this.#unranked(ctx, limit);
    this.#ensureCapacity();
    const plan = planSearch({ index: this.index, expansions: this.#expansions, sets: this.#sets, req, tokens });
    const top: Ranked[] = [];
    const scratch = this.#scratch;
    scratch.scored = 0;
    const matched = tokens.length === 0 ? this.#scoreStates(plan, ctx, top) : this.#scoreCandidates(plan, ctx, top);
    this.#observe?.({ candidates: tokens.length === 0 ? scratch.scored : this.#sets.size(), scored: scratch.scored });
    // Nothing in the request matched anything: what is where it was spoken is still the likeliest.
    const placeOnly = !matched && req.nearArea >= 0;
    if (placeOnly) {
      scratch.touchArea(req.nearArea);
      scratch.rank(plan, ctx, top, true);
    }
    const explain = explainer({ index: this.index, reading, tokens, terms: plan.terms, ctx, near: plan.near, nearAreaName: plan.nearAreaName, preference: plan.preference, placeOnly });
    return top.map(({ doc, score }) => {
      const eid = this.index.entityIdOf(doc);
      const { why, named } = explain(doc, eid);
      return { entityId: eid, score: Math.round(score * 1000) / 1000, why, named };
    });
  }

  /**
   * Scores the candidates in two batches. The first holds the combinations
   * of words that can score highest, enough of them for a full page, and the
   * documents named in full; its last place is then the bar. The second holds
   * the candidates of every other combination that can still reach that bar.
   * Returns whether any document matched.
   */
  #scoreCandidates(plan: Plan, ctx: SearchContext, top: Ranked[]): boolean {
    const sets = this.#sets;
    const scratch = this.#scratch;
    const words = MatchSets.wordsFor(this.index.docCount);
    const gate = this.#gate;
    const done = this.#done;
    const tokens = plan.tokens.length;
    if (this.#exhaustive || tokens === 1 || tokens > MAX_BOUNDED_TOKENS) return this.#scoreAll(plan, ctx, top);
    const bounds = this.#bounds;
    boundCombinations({ plan, most: sets.most, maxPrior: this.index.maxPrior, bounds, combinations: 1 << tokens });
    const order = Array.from({ length: (1 << tokens) - 1 }, (_, i) => i + 1).sort((a, b) => bounds[b]! - bounds[a]!);
    // The first batch: combinations by what they can score, until they hold a page.
    gate.fill(0, 0, words);
    let first = 0;
    let bar = Infinity;
    let taken = 0;
    for (const p of order) {
      if (first >= plan.limit && bounds[p]! < bar) break;
      if (taken++ === MAX_FIRST_COMBINATIONS) return this.#scoreAll(plan, ctx, top);
      first += sets.select(p, gate);
      bar = bounds[p]!;
    }
    if (first === 0) return false;
    for (const doc of plan.namedWhole) setBit(gate, doc);
    done.set(gate.subarray(0, words));
    scratch.score(plan, ctx, gate);
    scratch.rank(plan, ctx, top, false);
    // The second batch: the rest, where they can still reach the last place. Usually no combination left can.
    const last = top.length >= plan.limit ? top[top.length - 1]!.score : -Infinity;
    gate.fill(0, 0, words);
    let rest = 0;
    for (const p of order) if (bounds[p]! < bar && bounds[p]! * BOUND_SLACK >= last) rest += sets.select(p, gate, done);
    if (rest > 0) {
      scratch.score(plan, ctx, gate);
      scratch.rank(plan, ctx, top, false);
    }
    return true;
  }

  /** Only state words ("which are on"): every document in those states; returns whether there was any. */
  #scoreStates(plan: Plan, ctx: SearchContext, top: Ranked[]): boolean {
    this.#scratch.score(plan, ctx, null);
    const any = this.#scratch.touchedCount > 0;
    this.#scratch.rank(plan, ctx, top, false);
    return any;
  }

  /** Scores every candidate in one batch; returns whether there was any. */
  #scoreAll(plan: Plan, ctx: SearchContext, top: Ranked[]): boolean {
    this.#sets.union(this.#gate);
    this.#scratch.score(plan, ctx, this.#gate);
    const any = this.#scratch.touchedCount > 0;
    this.#scratch.rank(plan, ctx, top, false);
    return any;
  }

  #ensureCapacity(): void {
    this.#scratch.ensureCapacity();
    const words = MatchSets.wordsFor(this.index.docCount);
    if (this.#gate.length < words) {
      this.#gate = new Uint32Array(words * 2);
      this.#done = new Uint32Array(words * 2);
    }
  }

  /** No words, only filters: everything that passes, by name. */
  #unranked(ctx: SearchContext, limit: number): SearchHit[] {
    const top: Ranked[] = [];
    for (let doc = 0; doc < this.index.docCount; doc++) {
      if (!this.index.isAlive(doc)) continue;
      if (top.length >= limit && !this.#ranks.beats(doc, 1, top[top.length - 1]!)) continue;
      const item = { doc, score: 1, tie: this.index.tieOf(doc) };
      if (ctx.accept(this.index.entityIdOf(doc))) this.#ranks.insert(top, item, limit);
    }
    return top.map(({ doc }) => ({ entityId: this.index.entityIdOf(doc), score: 1, why: "matches the filters", named: false }));
  }
}
