import { MASK_SCORE, MASK_SCORE_MAX } from "./fields.js";
import type { SearchContext } from "./search-context.js";
import { explainer } from "./explain.js";
import { Expansions } from "./expansions.js";
import { preferenceOf, type Preference } from "./preferences.js";
import type { Reading, ReadToken } from "./reading.js";
import { NO_KINDS } from "./vocabulary/index.js";
import type { SearchIndex, TermMatch } from "./search-index.js";
import { TRAIT } from "./kinds.js";
import { MatchSets } from "./match-sets.js";
import { docOf, fieldsOf } from "./posting.js";
import { mostForPhrases, namesArea, phrasesOf, rewardPhrases, type Phrase } from "./phrases.js";
import { BEST, MATCHED, STRIDE, TOTAL } from "./score-slots.js";
import type { WeightedTerm } from "./weigh.js";

export type { SearchContext } from "./search-context.js";

/** One hit, best first. `why` says in words which parts of the query matched what. */
export interface SearchHit {
  entityId: string;
  score: number;
  why: string;
  /** Some word of the request matched the entity's own name, alias, device or id, not only its kind or place. */
  named: boolean;
}

export interface SearchRequest {
  reading: Reading;
  limit: number;
  /** The area the request was spoken in, and its floor, as the index numbers them; -1 for none. */
  nearArea: number;
  nearFloor: number;
  /** Its name, for `why`. */
  nearAreaName?: string;
}

/** What one search cost: the documents some word reached, and how many of them were scored. */
export interface SearchCost {
  candidates: number;
  scored: number;
}

export interface SearchEngineOptions {
  /** Score every candidate instead of skipping those that cannot reach the top: slower, the same answers. For checking the skipping. */
  exhaustive?: boolean;
  /** Told what each search cost; for tests and benchmarks. */
  observe?: (cost: SearchCost) => void;
}

// A state word that matches the entity's current state counts like a strong field match.
const STATE_MATCH_SCORE = 3.0;
// Extra score when some words of the query are exactly an entity's whole name.
const WHOLE_NAME_BONUS = 0.8;
/** The area the request was spoken in, when the request names no area: a preference, not a filter. */
const NEAR_AREA_BOOST = 1.6;
/** … and when the request says "here" or "this room". */
const HERE_BOOST = 2.2;
/** …and the rest of its floor, a little: the thermostat downstairs for "warmer" said in the living room. */
const SAME_FLOOR_BOOST = 1.15;
/** A question with state words ("which batteries are low") asks about flags: binary sensors first. */
const FLAGS = 1.1;
/** A command to something that only reports (a sensor) is unlikely… */
const CANNOT_ACT = 0.7;
/** …and one that sets a value ("to 21 degrees") is for something that can be set, whatever its name says. */
const CANNOT_BE_SET = 0.35;
/** A question about a level: numeric sensors measure it, binary ones only flag it. */
const MEASURES = 1.15;
const ONLY_FLAGS = 0.85;
/** Where nothing in the request matched, the entities of the area it was spoken in still come back, below any real match. */
const PLACE_ONLY_SCORE = 0.05;
/** Requests of more words than this are scored whole: their combinations of words are too many to bound one by one. */
const MAX_BOUNDED_TOKENS = 10;
/** A first batch that needs more combinations than this to fill a page is given up for scoring every candidate. */
const MAX_FIRST_COMBINATIONS = 16;
/** Bounds and scores are products taken in different orders; a bound this close to the last place still gets scored. */
const BOUND_SLACK = 1 + 1e-9;

/** What one search needs besides the scratch buffers, worked out once from the request. */
interface Plan {
  reading: Reading;
  limit: number;
  tokens: ReadToken[];
  expansions: TermMatch[][];
  terms: (readonly WeightedTerm[])[];
  states: { terms: readonly WeightedTerm[]; states: string[] }[];
  phrases: Phrase[];
  /** The weight of all words, state words included: a document matching all of them has full cover. */
  weight: number;
  namedWhole: readonly number[];
  near: number;
  nearFloor: number;
  nearBoost: number;
  nearAreaName: string | undefined;
  flags: boolean;
  command: boolean;
  preference: Preference;
}

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
  /** Per document: best score of the word being scored, total, words matched (see score-slots). */
  #acc = new Float64Array(0);
  #touched = new Int32Array(0);
  #touchedCount = 0;
  #local = new Int32Array(0);
  readonly #expansions: Expansions;
  readonly #sets = new MatchSets();
  /** The documents being scored, and those scored in the first batch, as bit sets. */
  #gate = new Uint32Array(0);
  #done = new Uint32Array(0);
  readonly #bounds = new Float64Array(1 << MAX_BOUNDED_TOKENS);
  readonly #exhaustive: boolean;
  readonly #observe: ((cost: SearchCost) => void) | undefined;
  /** Documents scored by the current search. */
  #scored = 0;

  constructor(
    private readonly index: SearchIndex,
    options: SearchEngineOptions = {},
  ) {
    this.#expansions = new Expansions(index);
    this.#exhaustive = options.exhaustive === true;
    this.#observe = options.observe;
  }

  search(req: SearchRequest, ctx: SearchContext): SearchHit[] {
    const { reading, limit } = req;
    const tokens = reading.tokens.filter((t) => t.weight > 0);
    if (tokens.length === 0 && reading.states.length === 0) return this.#unranked(ctx, limit);
    this.#ensureCapacity();
    const plan = this.#plan(req, tokens);
    const top: Ranked[] = [];
    this.#scored = 0;
    const matched = tokens.length === 0 ? this.#scoreStates(plan, ctx, top) : this.#scoreCandidates(plan, ctx, top);
    this.#observe?.({ candidates: tokens.length === 0 ? this.#scored : this.#sets.size(), scored: this.#scored });
    // Nothing in the request matched anything: what is where it was spoken is still the likeliest.
    const placeOnly = !matched && req.nearArea >= 0;
    if (placeOnly) {
      this.#touchArea(req.nearArea);
      this.#rank(plan, ctx, top, true);
    }
    const explain = explainer({ index: this.index, reading, tokens, terms: plan.terms, ctx, near: plan.near, nearAreaName: plan.nearAreaName, preference: plan.preference, placeOnly });
    return top.map(({ doc, score }) => {
      const eid = this.index.entityIdOf(doc);
      const { why, named } = explain(doc, eid);
      return { entityId: eid, score: Math.round(score * 1000) / 1000, why, named };
    });
  }

  #plan(req: SearchRequest, tokens: ReadToken[]): Plan {
    const { reading } = req;
    const index = this.index;
    const expansions = tokens.map((t) => this.#expansions.of(t));
    const terms = tokens.map((t) => this.#expansions.weighed(t));
    this.#sets.build(
      index,
      terms,
      tokens.map((t) => t.weight >= 1),
    );
    const states = reading.states.map((s) => {
      if (!s.term) return { terms: [], states: s.states };
      const token: ReadToken = { term: s.term, shown: s.word, weight: 1, kinds: NO_KINDS, known: true };
      return { terms: this.#expansions.weighed(token), states: s.states };
    });
    const phrases = phrasesOf({ index, tokens, expansions, runs: reading.unspaced });
    const namedArea = namesArea(phrases);
    const namedWhole = this.#sets.namedWhole;
    // Nothing names a device when every word that counts points at a kind ("pause", "the lights"): then states decide more.
    const generic = tokens.length > 0 && tokens.every((t) => t.kinds.length > 0 || t.weight < 1) && namedWhole.length === 0;
    return {
      reading,
      limit: req.limit,
      tokens,
      expansions,
      terms,
      states,
      phrases,
      weight: tokens.reduce((sum, t) => sum + t.weight, 0) + reading.states.length,
      namedWhole,
      near: namedArea ? -1 : req.nearArea,
      nearFloor: namedArea ? -1 : req.nearFloor,
      nearBoost: reading.here ? HERE_BOOST : NEAR_AREA_BOOST,
      nearAreaName: req.nearAreaName,
      flags: reading.states.length > 0 && reading.mood !== "command",
      command: reading.mood === "command",
      preference: preferenceOf(reading, generic),
    };
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
    const words = MatchSets.wordsFor(this.index.docCount);
    const gate = this.#gate;
    const done = this.#done;
    const tokens = plan.tokens.length;
    if (this.#exhaustive || tokens === 1 || tokens > MAX_BOUNDED_TOKENS) return this.#scoreAll(plan, ctx, top);
    const bounds = this.#bounds;
    this.#boundCombinations(plan, 1 << tokens);
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
    this.#score(plan, ctx, gate);
    this.#rank(plan, ctx, top, false);
    // The second batch: the rest, where they can still reach the last place. Usually no combination left can.
    const last = top.length >= plan.limit ? top[top.length - 1]!.score : -Infinity;
    gate.fill(0, 0, words);
    let rest = 0;
    for (const p of order) if (bounds[p]! < bar && bounds[p]! * BOUND_SLACK >= last) rest += sets.select(p, gate, done);
    if (rest > 0) {
      this.#score(plan, ctx, gate);
      this.#rank(plan, ctx, top, false);
    }
    return true;
  }

  /** Only state words ("which are on"): every document in those states; returns whether there was any. */
  #scoreStates(plan: Plan, ctx: SearchContext, top: Ranked[]): boolean {
    this.#score(plan, ctx, null);
    const any = this.#touchedCount > 0;
    this.#rank(plan, ctx, top, false);
    return any;
  }

  /** Scores every candidate in one batch; returns whether there was any. */
  #scoreAll(plan: Plan, ctx: SearchContext, top: Ranked[]): boolean {
    this.#sets.union(this.#gate);
    this.#score(plan, ctx, this.#gate);
    const any = this.#touchedCount > 0;
    this.#rank(plan, ctx, top, false);
    return any;
  }

  /** The most a document matching each combination of words (bit t: token t) can score, whatever its fields, state and place. */
  #boundCombinations(plan: Plan, combinations: number): void {
    const { tokens, reading, preference } = plan;
    const most = this.#sets.most;
    // The documents named in full are in the first batch: no bound needs their bonus.
    let extra = mostForPhrases(plan.phrases);
    for (const s of plan.states) extra += Math.max(STATE_MATCH_SCORE, MASK_SCORE_MAX * s.terms.reduce((m, t) => Math.max(m, t.weight), 0));
    let factor = this.index.maxPrior * preference.most;
    factor *= plan.near >= 0 ? Math.max(plan.nearBoost, SAME_FLOOR_BOOST) : plan.nearFloor >= 0 ? SAME_FLOOR_BOOST : 1;
    if (plan.flags) factor *= FLAGS;
    if (reading.quantity) factor *= MEASURES;
    for (let p = 1; p < combinations; p++) {
      let total = extra;
      let matched = reading.states.length;
      for (let t = 0; t < tokens.length; t++) {
        if (!(p & (1 << t))) continue;
        total += most[t]! * tokens[t]!.weight;
        matched += tokens[t]!.weight;
      }
      const cover = matched / plan.weight;
      this.#bounds[p] = total * cover * cover * factor;
    }
  }

  /**
   * Scores the documents in `gate` (all documents when null) into #acc and
   * lists them in #touched: each word's best field, the state words, the
   * phrases, and the bonus for a name said in full.
   */
  #score(plan: Plan, ctx: SearchContext, gate: Uint32Array | null): void {
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
  #rank(plan: Plan, ctx: SearchContext, top: Ranked[], placeOnly: boolean): void {
    const acc = this.#acc;
    const index = this.index;
    this.#scored += this.#touchedCount;
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
      if (top.length >= limit && !this.#beats(doc, score * preference.most, top[top.length - 1]!)) continue;
      const eid = index.entityIdOf(doc);
      if (preference.active) score *= preference.factor(ctx.stateOf(eid), named.includes(doc));
      if (top.length >= limit && !this.#beats(doc, score, top[top.length - 1]!)) continue;
      if (ctx.defaultRulesOnly ? traits & TRAIT.secondary : !ctx.accept(eid)) continue;
      this.#insertTop(top, { doc, score, tie: index.tieOf(doc) }, limit);
    }
    this.#touchedCount = 0;
  }

  #touch(doc: number): void {
    const at = doc * STRIDE;
    if (this.#acc[at + TOTAL] === 0 && this.#acc[at + MATCHED] === 0) this.#touched[this.#touchedCount++] = doc;
  }

  #touchArea(area: number): void {
    this.#touchedCount = 0;
    for (let doc = 0; doc < this.index.docCount; doc++) {
      if (this.index.isAlive(doc) && this.index.areaOf(doc) === area) this.#touched[this.#touchedCount++] = doc;
    }
  }

  /** Higher score first; equal scores: shorter name, then entity id. */
  #beats(doc: number, score: number, b: Ranked): boolean {
    if (score !== b.score) return score > b.score;
    const tie = this.index.tieOf(doc);
    if (tie !== b.tie) return tie < b.tie;
    return this.index.entityIdOf(doc) < this.index.entityIdOf(b.doc);
  }

  #insertTop(top: Ranked[], item: Ranked, limit: number): void {
    let i = top.length;
    while (i > 0 && this.#beats(item.doc, item.score, top[i - 1]!)) i--;
    if (i >= limit) return;
    top.splice(i, 0, item);
    if (top.length > limit) top.pop();
  }

  #ensureCapacity(): void {
    const n = this.index.docCount;
    if (this.#touched.length < n) {
      const size = Math.max(n, this.#touched.length * 2, 1024);
      this.#acc = new Float64Array(size * STRIDE);
      this.#touched = new Int32Array(size);
      this.#local = new Int32Array(size);
    }
    const words = MatchSets.wordsFor(n);
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
      if (top.length >= limit && !this.#beats(doc, 1, top[top.length - 1]!)) continue;
      const item = { doc, score: 1, tie: this.index.tieOf(doc) };
      if (ctx.accept(this.index.entityIdOf(doc))) this.#insertTop(top, item, limit);
    }
    return top.map(({ doc }) => ({ entityId: this.index.entityIdOf(doc), score: 1, why: "matches the filters", named: false }));
  }
}

interface Ranked {
  doc: number;
  score: number;
  /** Name length: shorter names win ties, as they are closer to what was typed. */
  tie: number;
}

function setBit(bits: Uint32Array, doc: number): void {
  bits[doc >>> 5]! |= 1 << (doc & 31);
}

function hasBit(bits: Uint32Array, doc: number): boolean {
  return (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
}
