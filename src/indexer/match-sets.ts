import { MASK_SCORE } from "./fields.js";
import { docOf, fieldsOf } from "./posting.js";
import type { SearchIndex } from "./search-index.js";
import type { WeightedTerm } from "./weigh.js";

/** Words whose bit sets are kept: a few hundred kilobytes at 10,000 entities. */
const MAX_KEPT_SETS = 128;

/** The documents one word reaches, and those whose name it matched, with the most its best match is worth. */
interface TokenSet {
  bits: Uint32Array;
  names: Uint32Array;
  anyName: boolean;
  most: number;
}

/** Names many entities share ("Phone", "Light") name none of them in particular. */
const MAX_NAMESAKES = 2;

/**
 * Which documents each word of a request reaches, as bit sets. One pass over
 * the postings writes a few kilobytes of bits and nothing else, so the search
 * knows, before it scores anything, the most each word can add, which
 * documents have their whole name said, and which documents matched exactly
 * a given combination of words. Scoring then reads only the candidates that
 * can still reach the top.
 */
export class MatchSets {
  /** Words of 32 documents each, per bit set. */
  #words = 0;
  #tokens = 0;
  /** Word w of token t's set is at t * #words + w. */
  #bits = new Uint32Array(0);
  /** The same for the documents whose name a token (of full weight) matched, when the name is short enough to be said in full. */
  #names = new Uint32Array(0);
  /** Per token, the most its best match can be worth before the token's own weight. */
  readonly most: number[] = [];
  /** Documents whose every name word the request says: at most MAX_NAMESAKES, else none. */
  readonly namedWhole: number[] = [];
  /** Bit sets of the words used lately, by their weighed terms (see #setOf). */
  readonly #kept = new Map<readonly WeightedTerm[], TokenSet>();
  #keptAt = -1;
  /** Per number of words a request can say, the documents whose names are that short. */
  readonly #short: { lengths: Uint8Array; docCount: number; bits: Uint32Array }[] = [];

  /** The words (32 documents each) a bit set over `docCount` documents takes. */
  static wordsFor(docCount: number): number {
    return (docCount + 31) >>> 5;
  }

  /**
   * Reads the postings of each token's terms. `fullWeight[t]` says whether
   * token t counts towards saying a whole name.
   */
  build(index: SearchIndex, terms: readonly (readonly WeightedTerm[])[], fullWeight: readonly boolean[]): void {
    const words = MatchSets.wordsFor(index.docCount);
    const size = words * terms.length;
    if (this.#bits.length < size) {
      this.#bits = new Uint32Array(size * 2);
      this.#names = new Uint32Array(size * 2);
    }
    this.#words = words;
    this.#tokens = terms.length;
    this.most.length = 0;
    // A name of more words than the request has can never be said in full: most names are not even looked at.
    const sayable = fullWeight.filter(Boolean).length;
    const nameLengths = index.nameLengths();
    const short = this.#shortNames(nameLengths, index.docCount, sayable);
    let anyName = false;
    for (let t = 0; t < terms.length; t++) {
      const base = t * words;
      const set = this.#setOf(index, terms[t]!, words);
      this.#bits.set(set.bits, base);
      this.most.push(set.most);
      if (!fullWeight[t] || !set.anyName) {
        this.#names.fill(0, base, base + words);
        continue;
      }
      for (let w = 0; w < words; w++) {
        const named = set.names[w]! & short[w]!;
        this.#names[base + w] = named;
        if (named !== 0) anyName = true;
      }
    }
    this.namedWhole.length = 0;
    if (anyName) this.#findNamedWhole(nameLengths);
  }

  /**
   * One word's postings as bit sets, kept for the words used lately: the same
   * words ("light", "kitchen") come back in request after request. A word's
   * weighed terms are a new array whenever the index changes, so an array
   * seen before stands for postings that have not changed since.
   */
  #setOf(index: SearchIndex, terms: readonly WeightedTerm[], words: number): TokenSet {
    // Rebuilt postings are new arrays: sets of the old ones would only keep them alive.
    if (this.#keptAt !== index.version) {
      this.#kept.clear();
      this.#keptAt = index.version;
    }
    const kept = this.#kept.get(terms);
    if (kept) {
      // Moved to the back: the word pushed out when the map is full is the one used longest ago.
      this.#kept.delete(terms);
      this.#kept.set(terms, kept);
      return kept;
    }
    const set = readPostings(terms, index.nameLengths(), words);
    if (this.#kept.size >= MAX_KEPT_SETS) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(terms, set);
    return set;
  }

  /** The documents whose name has 1 to `sayable` words, as a bit set; redone when documents come or the table is replaced. */
  #shortNames(nameLengths: Uint8Array, docCount: number, sayable: number): Uint32Array {
    const kept = this.#short[sayable];
    if (kept && kept.lengths === nameLengths && kept.docCount === docCount) return kept.bits;
    const bits = new Uint32Array(MatchSets.wordsFor(docCount));
    for (let doc = 0; doc < docCount; doc++) {
      const n = nameLengths[doc]!;
      if (n > 0 && n <= sayable) bits[doc >>> 5]! |= 1 << (doc & 31);
    }
    this.#short[sayable] = { lengths: nameLengths, docCount, bits };
    return bits;
  }

  /** Every candidate, into `out`. */
  union(out: Uint32Array): void {
    const words = this.#words;
    out.fill(0, 0, words);
    for (let t = 0; t < this.#tokens; t++) for (let w = 0; w < words; w++) out[w]! |= this.#bits[t * words + w]!;
  }

  /**
   * Adds to `out` the candidates that matched exactly the words of
   * `combination` (bit t: token t), leaving out those in `except`; returns
   * how many it added.
   */
  select(combination: number, out: Uint32Array, except?: Uint32Array): number {
    const words = this.#words;
    const tokens = this.#tokens;
    const bits = this.#bits;
    let added = 0;
    for (let w = 0; w < words; w++) {
      let m = except ? ~except[w]! : -1;
      for (let t = 0; t < tokens && m !== 0; t++) m &= combination & (1 << t) ? bits[t * words + w]! : ~bits[t * words + w]!;
      if (m === 0) continue;
      out[w]! |= m;
      added += popcount(m);
    }
    return added;
  }

  /** How many documents some word reached. */
  size(): number {
    let n = 0;
    for (let w = 0; w < this.#words; w++) {
      let any = 0;
      for (let t = 0; t < this.#tokens; t++) any |= this.#bits[t * this.#words + w]!;
      n += popcount(any);
    }
    return n;
  }

  #findNamedWhole(nameLengths: Uint8Array): void {
    const words = this.#words;
    const tokens = this.#tokens;
    const names = this.#names;
    let namesakes = 0;
    for (let w = 0; w < words; w++) {
      let named = 0;
      for (let t = 0; t < tokens; t++) named |= names[t * words + w]!;
      while (named !== 0) {
        const low = named & -named;
        named ^= low;
        let hits = 0;
        for (let t = 0; t < tokens; t++) if (names[t * words + w]! & low) hits++;
        const doc = (w << 5) | (31 - Math.clz32(low));
        if (hits >= nameLengths[doc]! && ++namesakes <= MAX_NAMESAKES) this.namedWhole.push(doc);
      }
    }
    if (namesakes > MAX_NAMESAKES) this.namedWhole.length = 0;
  }
}

/** One pass over a word's postings. */
function readPostings(terms: readonly WeightedTerm[], nameLengths: Uint8Array, words: number): TokenSet {
  const bits = new Uint32Array(words);
  const names = new Uint32Array(words);
  let anyName = false;
  let most = 0;
  for (const term of terms) {
    const posting = term.posting;
    let best = 0;
    for (let i = 0; i < posting.length; i++) {
      const doc = docOf(posting[i]!);
      const mask = fieldsOf(posting[i]!);
      const bit = 1 << (doc & 31);
      bits[doc >>> 5]! |= bit;
      if (mask & term.nameBit && nameLengths[doc]! > 0) {
        names[doc >>> 5]! |= bit;
        anyName = true;
      }
      const s = MASK_SCORE[mask]!;
      if (s > best) best = s;
    }
    if (best * term.weight > most) most = best * term.weight;
  }
  return { bits, names, anyName, most };
}

/** The number of bits set in a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
