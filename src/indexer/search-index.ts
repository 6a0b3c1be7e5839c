import { FIELDS, FIELD_BIT, type DocFields, type FieldKey } from "./fields.js";
import { allowedEdits, editDistance } from "./fuzzy.js";
import { tokens } from "./tokenize.js";

/** Which documents hold a term, and in which fields (a bit set per document). */
interface Posting {
  docs: number[];
  masks: number[];
}

/** A vocabulary term a query word leads to, and how good a match it is (0..1]. */
export interface TermMatch {
  term: string;
  quality: number;
  kind: "exact" | "synonym" | "prefix" | "typo";
}

const MAX_PREFIX_TERMS = 40;
// Fields whose adjacent words are also indexed joined ("livingroom"), for users who type them so.
const JOINED_FIELDS: ReadonlySet<FieldKey> = new Set(["name", "alias", "area", "floor", "device"]);
// Fields whose whole value is also indexed, so a query naming exactly an area ("downstairs")
// beats one that only shares a word with it ("downstairs toilet").
const WHOLE_VALUE_FIELDS: ReadonlySet<FieldKey> = new Set(["area", "floor", "label"]);

// Fields whose values many entities share (an area's name, a maker): worth caching their terms.
const SHARED_FIELDS: ReadonlySet<FieldKey> = new Set(["area", "floor", "maker", "label", "domain", "deviceClass", "integration"]);

const isWord = (t: string) => /^[a-z]/.test(t) && !/\d/.test(t);

/** The term under which a field's complete value is indexed. */
export const wholeValueTerm = (toks: string[]): string => `=${toks.join(" ")}`;

/**
 * A hand-written inverted index over entity documents. Documents are numbered
 * in insertion order, so every posting list is sorted and can be searched by
 * bisection. Removal leaves a tombstone; the owner rebuilds from scratch when
 * the registries change.
 */
export class SearchIndex {
  readonly #postings = new Map<string, Posting>();
  readonly #entityIds: string[] = [];
  readonly #alive: boolean[] = [];
  readonly #ties: number[] = [];
  readonly #priors: number[] = [];
  readonly #docOf = new Map<string, number>();
  #aliveCount = 0;
  #byLength: Map<number, string[]> | null = null;
  #sorted: string[] | null = null;
  readonly #expansionCache = new Map<string, TermMatch[]>();
  // Area, floor, maker, label and domain texts repeat across thousands of entities; derive their terms once.
  readonly #termCache = new Map<string, string[]>();
  readonly #scratch = new Map<string, number>();

  get docCount(): number {
    return this.#entityIds.length;
  }

  get tombstones(): number {
    return this.#entityIds.length - this.#aliveCount;
  }

  entityIdOf(doc: number): string {
    return this.#entityIds[doc]!;
  }

  priorOf(doc: number): number {
    return this.#priors[doc]!;
  }

  tieOf(doc: number): number {
    return this.#ties[doc]!;
  }

  isAlive(doc: number): boolean {
    return this.#alive[doc] === true;
  }

  /**
   * Adds or replaces the document of an entity. `tie` orders equal scores,
   * lower first; `prior` multiplies the document's score (1 is neutral).
   */
  add(entityId: string, fields: DocFields, tie = 0, prior = 1): void {
    this.remove(entityId);
    const doc = this.#entityIds.length;
    this.#entityIds.push(entityId);
    this.#alive.push(true);
    this.#ties.push(tie);
    this.#priors.push(prior);
    this.#docOf.set(entityId, doc);
    this.#aliveCount++;
    const masks = this.#scratch;
    masks.clear();
    for (const field of FIELDS) {
      const bit = FIELD_BIT[field.key];
      for (const text of fields[field.key]) {
        for (const term of this.#termsOf(field.key, text)) masks.set(term, (masks.get(term) ?? 0) | bit);
      }
    }
    for (const [term, mask] of masks) {
      let posting = this.#postings.get(term);
      if (!posting) {
        posting = { docs: [], masks: [] };
        this.#postings.set(term, posting);
        this.#vocabularyChanged();
      }
      posting.docs.push(doc);
      posting.masks.push(mask);
    }
  }

  /** The terms one field value contributes: its tokens, joined word pairs, and the whole value. */
  #termsOf(field: FieldKey, text: string): string[] {
    const key = `${field}\u0000${text}`;
    const cached = SHARED_FIELDS.has(field) ? this.#termCache.get(key) : undefined;
    if (cached) return cached;
    const toks = tokens(text);
    const terms = [...toks];
    if (toks.length && WHOLE_VALUE_FIELDS.has(field)) terms.push(wholeValueTerm(toks));
    if (JOINED_FIELDS.has(field)) {
      // Only words join: "livingroom" is typed, "light12" is not, and numbers would swamp the vocabulary.
      for (let i = 1; i < toks.length; i++) if (isWord(toks[i - 1]!) && isWord(toks[i]!)) terms.push(toks[i - 1]! + toks[i]!);
    }
    if (SHARED_FIELDS.has(field) && this.#termCache.size < 20_000) this.#termCache.set(key, terms);
    return terms;
  }

  remove(entityId: string): void {
    const doc = this.#docOf.get(entityId);
    if (doc === undefined) return;
    this.#docOf.delete(entityId);
    this.#alive[doc] = false;
    this.#aliveCount--;
  }

  posting(term: string): Posting | undefined {
    return this.#postings.get(term);
  }

  /** The fields (bit set) in which a document holds a term, or 0. */
  maskOf(term: string, doc: number): number {
    const p = this.#postings.get(term);
    if (!p) return 0;
    let lo = 0;
    let hi = p.docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = p.docs[mid]!;
      if (d === doc) return p.masks[mid]!;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** Rarer terms count more; dampened so that a rare word in a weak field does not win alone. */
  idf(term: string): number {
    const df = this.#postings.get(term)?.docs.length ?? 0;
    return 1 + 0.35 * Math.log(1 + this.#entityIds.length / (df + 1));
  }

  /** Vocabulary terms a query token leads to: itself, longer words it starts, and near-misspellings. */
  expand(token: string, synonyms: string[]): TermMatch[] {
    const key = synonyms.length ? `${token}|${synonyms.join(",")}` : token;
    const cached = this.#expansionCache.get(key);
    if (cached) return cached;
    const out = new Map<string, TermMatch>();
    const put = (m: TermMatch) => {
      const prior = out.get(m.term);
      if (!prior || prior.quality < m.quality) out.set(m.term, m);
    };
    const exact = this.#postings.has(token);
    if (exact) put({ term: token, quality: 1, kind: "exact" });
    let known = exact;
    for (const s of synonyms) {
      if (!this.#postings.has(s)) continue;
      put({ term: s, quality: 0.85, kind: "synonym" });
      known = true;
    }
    if (token.length >= 3 && isWord(token)) for (const t of this.#prefixed(token)) put({ term: t, quality: 0.7, kind: "prefix" });
    const edits = allowedEdits(token.length);
    // A word found as typed (or as a synonym) is taken as meant; only unknown words are treated as typos.
    if (!known && edits > 0 && isWord(token)) {
      for (const [term, distance] of this.#near(token, edits)) {
        put({ term, quality: distance === 1 ? 0.8 : 0.6, kind: "typo" });
      }
    }
    const result = [...out.values()];
    if (this.#expansionCache.size > 5000) this.#expansionCache.clear();
    this.#expansionCache.set(key, result);
    return result;
  }

  /**
   * Trims every posting list to its length, after a full build. Lists grow by
   * pushes, which leave room for half as many again; at 10,000 entities that
   * slack is megabytes, and most lists never grow again.
   */
  compact(): void {
    for (const posting of this.#postings.values()) {
      posting.docs = posting.docs.slice();
      posting.masks = posting.masks.slice();
    }
  }

  /** Builds the lookup tables for prefixes and typos now rather than on the first query. */
  warm(): void {
    this.#prefixed("\u0000");
    this.#near("\u0000\u0000\u0000\u0000", 1);
  }

  #vocabularyChanged(): void {
    this.#byLength = null;
    this.#sorted = null;
    this.#expansionCache.clear();
  }

  #prefixed(prefix: string): string[] {
    if (!this.#sorted) this.#sorted = [...this.#postings.keys()].sort();
    const sorted = this.#sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && out.length < MAX_PREFIX_TERMS; i++) {
      const t = sorted[i]!;
      if (!t.startsWith(prefix)) break;
      if (t !== prefix) out.push(t);
    }
    return out;
  }

  #near(token: string, maxEdits: number): [string, number][] {
    if (!this.#byLength) {
      this.#byLength = new Map();
      for (const term of this.#postings.keys()) {
        // Numbers and whole-value terms are never what a misspelt word meant.
        if (!isWord(term)) continue;
        const list = this.#byLength.get(term.length);
        if (list) list.push(term);
        else this.#byLength.set(term.length, [term]);
      }
    }
    const out: [string, number][] = [];
    for (let len = token.length - maxEdits; len <= token.length + maxEdits; len++) {
      // A shorter vocabulary word may not use the larger budget the query word earned.
      const budget = Math.min(maxEdits, allowedEdits(len));
      if (budget === 0) continue;
      for (const term of this.#byLength.get(len) ?? []) {
        // People rarely mistype the first letter; checking it first skips most of the vocabulary.
        if (term.charCodeAt(0) !== token.charCodeAt(0) && (budget < 2 || term.charCodeAt(1) !== token.charCodeAt(1))) continue;
        const d = editDistance(token, term, budget);
        if (d <= budget) out.push([term, d]);
      }
    }
    return out;
  }
}
