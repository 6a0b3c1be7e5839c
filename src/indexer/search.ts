import { FIELD_BIT, MASK_SCORE } from "./fields.js";
import type { SearchContext } from "./search-context.js";
import { explainHit } from "./explain.js";
import { Expansions } from "./expansions.js";
import { preferenceOf } from "./preferences.js";
import type { Reading, ReadToken } from "./reading.js";
import { NO_KINDS } from "./vocabulary/index.js";
import type { SearchIndex, TermMatch } from "./search-index.js";
import { TRAIT } from "./kinds.js";
import { wholeValueBonus } from "./phrases.js";
import { BEST, MATCHED, STRIDE, TOTAL } from "./score-slots.js";

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

// A state word that matches the entity's current state counts like a strong field match.
const STATE_MATCH_SCORE = 3.0;
// Extra score when some words of the query are exactly an entity's whole name.
const WHOLE_NAME_BONUS = 0.8;
const MAX_NAMESAKES = 2;
/** The area the request was spoken in, when the request names no area: a preference, not a filter. */
const NEAR_AREA_BOOST = 1.6;
/** … and when the request says "here" or "this room". */
const HERE_BOOST = 2.2;
/** …and the rest of its floor, a little: the thermostat downstairs for "warmer" said in the living room. */
const SAME_FLOOR_BOOST = 1.15;
/** A name that merely contains the verb of a command ("Towel *Warmer*" for "make it warmer") is weaker evidence than the kind the verb acts on. */
const VERB_AS_NAME = 0.6;
/** A question with state words ("which batteries are low") asks about flags: binary sensors first. */
const FLAGS = 1.1;
/** For a word that is both a kind and a name word ("lamp"), being of the kind counts a little less than bearing the name. */
const KIND_OF_NAMED_WORD = 0.9;
/** A command to something that only reports (a sensor) is unlikely… */
const CANNOT_ACT = 0.7;
/** …and one that sets a value ("to 21 degrees") is for something that can be set, whatever its name says. */
const CANNOT_BE_SET = 0.35;
/** A question about a level: numeric sensors measure it, binary ones only flag it. */
const MEASURES = 1.15;
const ONLY_FLAGS = 0.85;
/** Where nothing in the request matched, the entities of the area it was spoken in still come back, below any real match. */
const PLACE_ONLY_SCORE = 0.05;

/**
 * Ranks documents for a request. Each word is scored on its best field in
 * each document (weighted by field, match quality and rarity), the word
 * scores are added, and documents that miss words are pushed down by the
 * square of the share of words they matched. Then the reading of the request
 * shifts close calls: a command prefers what can act, a question about a
 * level prefers what measures it, an action prefers entities in the states
 * it applies to (playing before idle for "pause"), and the area the request
 * was spoken in is preferred when the request names none. Scratch buffers
 * are reused between queries so a search allocates almost nothing.
 */
export class SearchEngine {
  /** Per document: best score of the word being scored, total, words matched (see score-slots). */
  #acc = new Float64Array(0);
  #touched = new Int32Array(0);
  #touchedCount = 0;
  #local = new Int32Array(0);
  readonly #expansions: Expansions;
  /** Documents whose whole name the request says ("Telewizor"), found by the whole-value pass of each search. */
  readonly #namedWhole = new Set<number>();
  /** Per document, how many words of the request matched its name as written or in another form. */
  #nameHits = new Uint8Array(0);
  /** Scratch of #scoreToken: whether the word being scored matched the document's name. */
  #namedNow = new Uint8Array(0);

  constructor(private readonly index: SearchIndex) {
    this.#expansions = new Expansions(index);
  }

  search(req: SearchRequest, ctx: SearchContext): SearchHit[] {
    const { reading, limit } = req;
    const scored = reading.tokens.filter((t) => t.weight > 0);
    if (scored.length === 0 && reading.states.length === 0) return this.#unranked(ctx, limit);
    this.#ensureCapacity();
    const acc = this.#acc;
    const local = this.#local;
    this.#touchedCount = 0;

    let weight = 0;
    const expansions = scored.map((t) => this.#expansions.of(t));
    for (let t = 0; t < scored.length; t++) {
      const token = scored[t]!;
      weight += token.weight;
      const n = this.#scoreToken(token, expansions[t]!);
      const nameHits = this.#nameHits;
      const namedNow = this.#namedNow;
      for (let i = 0; i < n; i++) {
        const doc = local[i]!;
        const at = doc * STRIDE;
        this.#touch(doc);
        acc[at + TOTAL]! += acc[at + BEST]! * token.weight;
        acc[at + MATCHED]! += token.weight;
        acc[at + BEST] = 0;
        if (namedNow[doc] && token.weight >= 1 && nameHits[doc]! < 255) nameHits[doc]!++;
      }
    }
    // A state word selects among the candidates the other words found (or among everything, if there are no others).
    // It may also be a word of a name ("Forecast Home"): the better of the two counts.
    for (const state of reading.states) {
      weight += 1;
      const n = state.term ? this.#scoreToken({ term: state.term, shown: state.word, weight: 1, kinds: NO_KINDS, known: true }) : 0;
      const everything = scored.length === 0;
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
    const namedArea = wholeValueBonus({ index: this.index, acc, tokens: scored, expansions, runs: reading.unspaced });
    this.#wholeNameBonus();
    // Nothing in the request matched anything: what is where it was spoken is still the likeliest.
    const placeOnly = this.#touchedCount === 0 && req.nearArea >= 0;
    if (placeOnly) this.#touchArea(req.nearArea);
    const near = namedArea ? -1 : req.nearArea;
    const nearFloor = namedArea ? -1 : req.nearFloor;
    const nearBoost = reading.here ? HERE_BOOST : NEAR_AREA_BOOST;
    const flags = reading.states.length > 0 && reading.mood !== "command";
    // Nothing names a device when every word that counts points at a kind ("pause", "the lights"): then states decide more.
    const generic = scored.length > 0 && scored.every((t) => t.kinds.length > 0 || t.weight < 1) && this.#namedWhole.size === 0;
    const preference = preferenceOf(reading, generic);
    const command = reading.mood === "command";
    const top: Ranked[] = [];
    for (let i = 0; i < this.#touchedCount; i++) {
      const doc = this.#touched[i]!;
      const at = doc * STRIDE;
      const cover = weight > 0 ? acc[at + MATCHED]! / weight : 0;
      let score = placeOnly ? PLACE_ONLY_SCORE : acc[at + TOTAL]! * cover * cover;
      acc[at + TOTAL] = 0;
      acc[at + MATCHED] = 0;
      this.#nameHits[doc] = 0;
      if (!this.index.isAlive(doc)) continue;
      const index = this.index;
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
      const eid = this.index.entityIdOf(doc);
      if (preference.active) score *= preference.factor(ctx.stateOf(eid), this.#namedWhole.has(doc));
      if (top.length >= limit && !this.#beats(doc, score, top[top.length - 1]!)) continue;
      if (ctx.defaultRulesOnly ? traits & TRAIT.secondary : !ctx.accept(eid)) continue;
      this.#insertTop(top, { doc, score, tie: index.tieOf(doc) }, limit);
    }
    return top.map(({ doc, score }) => {
      const eid = this.index.entityIdOf(doc);
      const explained = explainHit({ index: this.index, doc, eid, reading, tokens: scored, expansions, ctx, near, nearAreaName: req.nearAreaName, preference, placeOnly });
      return { entityId: eid, score: Math.round(score * 1000) / 1000, why: explained.why, named: explained.named };
    });
  }

  #touch(doc: number): void {
    const at = doc * STRIDE;
    if (this.#acc[at + TOTAL] === 0 && this.#acc[at + MATCHED] === 0) this.#touched[this.#touchedCount++] = doc;
  }

  #touchArea(area: number): void {
    for (let doc = 0; doc < this.index.docCount; doc++) {
      if (this.index.isAlive(doc) && this.index.areaOf(doc) === area) {
        this.#touched[this.#touchedCount++] = doc;
        this.#acc[doc * STRIDE + MATCHED] = 0;
      }
    }
  }

  /** Higher score first; equal scores: shorter name, then entity id. */
  #before(a: Ranked, b: Ranked): boolean {
    return this.#beats(a.doc, a.score, b);
  }

  #beats(doc: number, score: number, b: Ranked): boolean {
    if (score !== b.score) return score > b.score;
    const tie = this.index.tieOf(doc);
    if (tie !== b.tie) return tie < b.tie;
    return this.index.entityIdOf(doc) < this.index.entityIdOf(b.doc);
  }

  #insertTop(top: Ranked[], item: Ranked, limit: number): void {
    let i = top.length;
    while (i > 0 && this.#before(item, top[i - 1]!)) i--;
    if (i >= limit) return;
    top.splice(i, 0, item);
    if (top.length > limit) top.pop();
  }

  /**
   * Rewards documents whose every name word the request says ("Ночник" over
   * "Ночник в детской", "Telewizor" over the speakers a kind word also
   * reaches), and notes them: for them a state preference is only an edge.
   */
  #wholeNameBonus(): void {
    this.#namedWhole.clear();
    // As rare as a term can be: a name said in full is nearly always one entity's.
    const bonus = WHOLE_NAME_BONUS * this.index.idf("");
    for (let i = 0; i < this.#touchedCount; i++) {
      const doc = this.#touched[i]!;
      // Most candidates matched no word of their name: the small per-document count decides that first.
      const hits = this.#nameHits[doc]!;
      if (hits === 0) continue;
      const words = this.index.nameLengthOf(doc);
      if (words === 0 || hits < words || this.#acc[doc * STRIDE + TOTAL]! <= 0) continue;
      this.#namedWhole.add(doc);
      // Names many entities share ("Phone", "Light") name none of them in particular.
      if (this.#namedWhole.size > MAX_NAMESAKES) {
        this.#namedWhole.clear();
        return;
      }
    }
    for (const doc of this.#namedWhole) this.#acc[doc * STRIDE + TOTAL]! += bonus;
  }

  /** Puts each document's best score for one query word into `#best`, the documents into `#local`; returns their count. */
  #scoreToken(token: ReadToken, expansions: TermMatch[] = this.#expansions.of(token)): number {
    const acc = this.#acc;
    const local = this.#local;
    const named = this.#namedNow;
    let n = 0;
    // A longer, respelled or implied term may not count as rarer than the word the user actually typed.
    const ownIdf = token.term && this.index.posting(token.term) ? this.index.idf(token.term) : Infinity;
    // A word for a kind of device ("lamp") counts nearly the same whether an entity is one or is named so:
    // a light not called "lamp" is almost as good a lamp as the "Desk Lamp", so where it is or what state
    // it is in can decide between them, while "lantern" still finds the "Patio Lantern" first.
    const kindWord = token.kinds.length > 0 && ownIdf !== Infinity;
    for (const m of expansions) {
      const posting = this.index.posting(m.term);
      if (!posting) continue;
      // A misspelling earns no rarity: a rare name must not win on a word the user did not write.
      let weight =
        m.kind === "typo" ? m.quality : kindWord ? m.quality * ownIdf * (m.kind === "kind" ? KIND_OF_NAMED_WORD : 1) : m.quality * Math.min(this.index.idf(m.term), ownIdf);
      if (token.verb && m.kind !== "kind") weight *= VERB_AS_NAME;
      // A word of the name said as written, in another form, a letter or two short, or misspelt counts towards saying the whole name.
      const namesWord = m.kind === "exact" || m.kind === "variant" || m.kind === "typo" || (m.kind === "prefix" && m.term.length - token.term.length <= 2);
      const nameBit = namesWord ? FIELD_BIT.name : 0;
      const { docs, masks } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const mask = masks[i]!;
        const s = MASK_SCORE[mask]! * weight;
        const at = doc * STRIDE + BEST;
        if (acc[at] === 0) {
          local[n++] = doc;
          named[doc] = 0;
        }
        if (mask & nameBit) named[doc] = 1;
        if (s > acc[at]!) acc[at] = s;
      }
    }
    return n;
  }



  #ensureCapacity(): void {
    const n = this.index.docCount;
    if (this.#touched.length >= n) return;
    const size = Math.max(n, this.#touched.length * 2, 1024);
    this.#acc = new Float64Array(size * STRIDE);
    this.#touched = new Int32Array(size);
    this.#local = new Int32Array(size);
    this.#nameHits = new Uint8Array(size);
    this.#namedNow = new Uint8Array(size);
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
