import { hasBit } from "./doc-bits.js";
import { MASK_SCORE } from "./fields.js";
import { TRAIT } from "./kinds.js";
import { rewardPhrases } from "./phrases.js";
import { docOf, fieldsOf } from "./posting.js";
import type { SearchContext } from "./search-context.js";
import type { SearchIndex } from "./search-index.js";
import type { Plan } from "./search-plan.js";
import {
  CANNOT_ACT,
  CANNOT_BE_SET,
  FLAGS,
  MEASURES,
  ONLY_FLAGS,
  PLACE_ONLY_SCORE,
  SAME_FLOOR_BOOST,
  STATE_MATCH_SCORE,
  WHOLE_NAME_BONUS,
} from "./search-weights.js";
import { BEST, MATCHED, STRIDE, TOTAL } from "./score-slots.js";
import type { Ranked, TopRanks } from "./top-ranks.js";
import type { WeightedTerm } from "./weigh.js";

/**
 * The scores of one batch of documents: each word's best field, the state
 * words, the phrases and the name said in full are added up in reused
 * scratch arrays (see score-slots), then the reading of the request shifts
 * them and the survivors are ranked onto the page. Reused between queries,
 * so a search allocates almost nothing.
 */
export class ScoreScratch {
  /** Per document: best score of the word being scored, total, words matched (see score-slots). */
  #acc = new Float64Array(0);
  #touched = new Int32Array(0);
  #touchedCount = 0;
  #local = new Int32Array(0);
  /** Documents ranked by the current search; the engine zeroes it as each search starts. */
  scored = 0;

  constructor(
    private readonly index: SearchIndex,
    private readonly ranks: TopRanks,
  ) {}

  /** How many documents the last `score` or `touchArea` listed and no `rank` has taken yet. */
  get touchedCount(): number {
    return this.#touchedCount;
  }

  /** Grows the arrays to the index's size; they only grow, so a search after the first allocates nothing. */
  ensureCapacity(): void {
    const n = this.index.docCount;
    if (this.#touched.length < n) {
      const size = Math.max(n, this.#touched.length * 2, 1024);
      this.#acc = new Float64Array(size * STRIDE);
      this.#touched = new Int32Array(size);
      this.#local = new Int32Array(size);
    }
  }

  /**
   * Scores the documents in `gate` (all documents when null) into #acc and
   * lists them in #touched: each word's best field, the state words, the
   * phrases, and the bonus for a name said in full.
   */
  score(plan: Plan, ctx: SearchContext, gate: Uint32Array | null): void {
    const acc = this.#acc;
    const local = this.#local;
    this.#touchedCount = 0;
    for (let t = 0; t < plan.terms.length; t++) {
      const weight = plan.tokens[t]!.weight;
      const n = this.#best(plan.terms[t]!, gate);
      for (let i = 0; i < n; i++) {
        const at = local[i]! * STRIDE;
        this.#touch(local[i]!);
        acc[at + TOTAL]! += acc[at + BEST]! * weight;
        acc[at + MATCHED]! += weight;
        acc[at + BEST] = 0;
      }
    }
    // A state word selects among the candidates the other words found (or among everything, if there are no others).
    // It may also be a word of a name ("Forecast Home"): the better of the two counts.
    const everything = plan.terms.length === 0;
    for (const state of plan.states) {
      const n = this.#best(state.terms, gate);
      const size = everything ? this.index.docCount : this.#touchedCount;
      for (let i = 0; i < size; i++) {
        const doc = everything ? i : this.#touched[i]!;
        if (everything && !this.index.isAlive(doc)) continue;
        const at = doc * STRIDE;
        const s = Math.max(acc[at + BEST]!, ctx.inState(this.index.entityIdOf(doc), state.states) ? STATE_MATCH_SCORE : 0);
        if (s === 0) continue;
        this.#touch(doc);
        acc[at + TOTAL]! += s;
        acc[at + MATCHED]! += 1;
      }
      for (let i = 0; i < n; i++) acc[local[i]! * STRIDE + BEST] = 0;
    }
    rewardPhrases(acc, plan.phrases);
    // As rare as a term can be: a name said in full is nearly always one entity's.
    const bonus = WHOLE_NAME_BONUS * this.index.idf("");
    for (const doc of plan.namedWhole) if (acc[doc * STRIDE + TOTAL]! > 0) acc[doc * STRIDE + TOTAL]! += bonus;
  }

  /** Puts each gated document's best score for one word (over the terms it reaches) into BEST, the documents into #local; returns their count. */
  #best(terms: readonly WeightedTerm[], gate: Uint32Array | null): number {
    const acc = this.#acc;
    const local = this.#local;
    let n = 0;
    for (const { posting, weight } of terms) {
      for (let i = 0; i < posting.length; i++) {
        const doc = docOf(posting[i]!);
        if (gate !== null && !hasBit(gate, doc)) continue;
        const s = MASK_SCORE[fieldsOf(posting[i]!)]! * weight;
        const at = doc * STRIDE + BEST;
        if (acc[at] === 0) local[n++] = doc;
        if (s > acc[at]!) acc[at] = s;
      }
    }
    return n;
  }

  /** Ranks the documents in #touched into `top`, and clears their scratch scores. */
  rank(plan: Plan, ctx: SearchContext, top: Ranked[], placeOnly: boolean): void {
    const acc = this.#acc;
    const index = this.index;
    const ranks = this.ranks;
    this.scored += this.#touchedCount;
    const { reading, preference, near, nearFloor, nearBoost, flags, command, limit } = plan;
    const weight = plan.weight;
    const named = plan.namedWhole;
    for (let i = 0; i < this.#touchedCount; i++) {
      const doc = this.#touched[i]!;
      const at = doc * STRIDE;
      const cover = weight > 0 ? acc[at + MATCHED]! / weight : 0;
      let score = placeOnly ? PLACE_ONLY_SCORE : acc[at + TOTAL]! * cover * cover;
      acc[at + TOTAL] = 0;
      acc[at + MATCHED] = 0;
      if (!index.isAlive(doc)) continue;
      const traits = index.traitsOf(doc);
      // Left out by default: decided before any other work on the document.
      if (ctx.defaultRulesOnly && traits & TRAIT.secondary) continue;
      score *= index.priorOf(doc);
      if (near >= 0 && index.areaOf(doc) === near) score *= nearBoost;
      else if (nearFloor >= 0 && index.floorOf(doc) === nearFloor) score *= SAME_FLOOR_BOOST;
      if (flags && traits & TRAIT.binary) score *= FLAGS;
      if (command && !(traits & TRAIT.controllable)) score *= reading.setsValue ? CANNOT_BE_SET : CANNOT_ACT;
      if (reading.quantity) score *= traits & TRAIT.numeric ? MEASURES : traits & TRAIT.binary ? ONLY_FLAGS : 1;
      // Most candidates lose to the current last place even at the best state; decide that before reading states.
      if (top.length >= limit && !ranks.beats(doc, score * preference.most, top[top.length - 1]!)) continue;
      const eid = index.entityIdOf(doc);
      if (preference.active) score *= preference.factor(ctx.stateOf(eid), named.includes(doc));
      if (top.length >= limit && !ranks.beats(doc, score, top[top.length - 1]!)) continue;
      if (ctx.defaultRulesOnly ? traits & TRAIT.secondary : !ctx.accept(eid)) continue;
      ranks.insert(top, { doc, score, tie: index.tieOf(doc) }, limit);
    }
    this.#touchedCount = 0;
  }

  #touch(doc: number): void {
    const at = doc * STRIDE;
    if (this.#acc[at + TOTAL] === 0 && this.#acc[at + MATCHED] === 0) this.#touched[this.#touchedCount++] = doc;
  }

  /** Lists every live document of the area, for a request in which nothing matched. */
  touchArea(area: number): void {
    this.#touchedCount = 0;
    for (let doc = 0; doc < this.index.docCount; doc++) {
      if (this.index.isAlive(doc) && this.index.areaOf(doc) === area) this.#touched[this.#touchedCount++] = doc;
    }
  }
}
