import { FIELDS, FIELD_BIT, type DocFields, type FieldKey } from "./fields.js";
import { DocTable, type DocMeta } from "./doc-table.js";
import { entryOf, MAX_DOCS, type Posting } from "./posting.js";
import { allowedEdits } from "./fuzzy.js";
import { isWord, MAX_PREFIX_TERMS, TermFinder } from "./term-finder.js";
import { grams, isUnspaced, segments, stem } from "./tokenize.js";

export type { DocMeta } from "./doc-table.js";

/**
 * A vocabulary term a query word leads to, and how good a match it is (0..1].
 * `kind` says how it was reached: as typed, through the vocabulary (a kind of
 * device or a synonym), as the start of a longer word, as another ending of
 * the same word ("kuchni" → "kuchnia"), or as a misspelling.
 */
export interface TermMatch {
  term: string;
  quality: number;
  kind: "exact" | "synonym" | "kind" | "prefix" | "variant" | "typo";
}

/** A term the vocabulary or the synonyms give a word, with how surely. */
export interface ExtraTerm {
  term: string;
  quality: number;
  kind: "synonym" | "kind";
}

/**
 * A word the index holds as typed needs few longer readings: most terms it
 * starts are its own joined pairs ("kitchen" → "kitchenlight"), which match
 * the same entities. Fewer expansions make each search cheaper.
 */
const MAX_PREFIX_TERMS_WHEN_EXACT = 6;
// Fields whose adjacent words are also indexed joined ("livingroom"), for users who type them so.
const JOINED_FIELDS: ReadonlySet<FieldKey> = new Set(["name", "alias", "area", "floor", "device"]);
// Fields whose whole value is also indexed, so a query naming exactly an area ("downstairs")
// beats one that only shares a word with it ("downstairs toilet"). A name said in full is
// found by counting its words instead (nameLengths), which costs no term per entity.
const WHOLE_VALUE_FIELDS: ReadonlySet<FieldKey> = new Set(["area", "floor", "label"]);
// Fields whose values many entities share (an area's name, a maker): worth caching their terms.
const SHARED_FIELDS: ReadonlySet<FieldKey> = new Set(["area", "floor", "maker", "label", "domain", "deviceClass", "integration", "kind"]);


/** Cuts a compound word before the noun it ends with; the vocabulary knows the nouns. */
export type CompoundSplitter = (word: string) => { head: string; tail: string } | undefined;

/** The term under which a field's complete value is indexed: "=living room", "=客厅". */
export function wholeValueTerm(text: string): string {
  return `=${segments(text)
    .map((s) => (isUnspaced(s) ? s : stem(s)))
    .join(" ")}`;
}

/** The term for a run of query terms, to look up as a whole value. */
export const phraseTerm = (terms: string[]): string => `=${terms.join(" ")}`;

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
  readonly #meta = new DocTable();
  /** Bumped whenever a term is added, so that cached expansions of query words are dropped. */
  #version = 0;
  readonly #docOf = new Map<string, number>();
  #aliveCount = 0;
  /** The largest prior any document has had: a bound for skipping candidates that cannot reach the top. */
  #maxPrior = 0;
  #finder: TermFinder | null = null;
  /** Whole values written without spaces (an area "客厅"): found inside a query rather than word by word. */
  readonly #unspacedValues = new Set<string>();
  readonly #expansionCache = new Map<string, TermMatch[]>();
  // Area, floor, maker, label and domain texts repeat across thousands of entities; derive their terms once.
  readonly #termCache = new Map<string, string[]>();
  readonly #scratch = new Map<string, number>();
  readonly #split: CompoundSplitter;

  /** `split` cuts compound names into their parts ("Küchenlicht" is also found as "Küche" and "Licht"). */
  constructor(split: CompoundSplitter = () => undefined) {
    this.#split = split;
  }

  get docCount(): number {
    return this.#entityIds.length;
  }

  get maxPrior(): number {
    return this.#maxPrior;
  }

  get tombstones(): number {
    return this.#entityIds.length - this.#aliveCount;
  }

  entityIdOf(doc: number): string {
    return this.#entityIds[doc]!;
  }

  tieOf(doc: number): number {
    return this.#meta.tieOf(doc);
  }

  priorOf(doc: number): number {
    return this.#meta.priorOf(doc);
  }

  areaOf(doc: number): number {
    return this.#meta.areaOf(doc);
  }

  floorOf(doc: number): number {
    return this.#meta.floorOf(doc);
  }

  traitsOf(doc: number): number {
    return this.#meta.traitsOf(doc);
  }

  /** Per document, how many different words its name has (0 for a name of unspaced script): all of them said is the whole name. The array itself, for the search's loops; valid until the next add. */
  nameLengths(): Uint8Array {
    return this.#meta.nameLengths();
  }

  /** Changes whenever the index gains a term or its postings are replaced: expansions cached before are stale. */
  get version(): number {
    return this.#version;
  }

  isAlive(doc: number): boolean {
    return this.#alive[doc] === true;
  }

  unspacedValues(): ReadonlySet<string> {
    return this.#unspacedValues;
  }

  /** Adds or replaces the document of an entity. */
  add(entityId: string, fields: DocFields, meta: DocMeta): void {
    this.remove(entityId);
    const doc = this.#entityIds.length;
    // The owner rebuilds when tombstones pile up, so only a home of some 400,000 entities gets here.
    if (doc >= MAX_DOCS) throw new RangeError(`The search index holds at most ${MAX_DOCS} documents; rebuild it to drop the ${this.tombstones} removed ones.`);
    this.#entityIds.push(entityId);
    this.#alive.push(true);
    const nameSegs = segments(fields.name[0] ?? "");
    this.#meta.push(meta, nameSegs.some(isUnspaced) ? 0 : new Set(nameSegs.map(stem)).size);
    this.#maxPrior = Math.max(this.#maxPrior, this.#meta.priorOf(doc));
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
        posting = [];
        this.#postings.set(term, posting);
        this.#vocabularyChanged();
      }
      posting.push(entryOf(doc, mask));
    }
  }

  /** The terms one field value contributes: its tokens, joined word pairs, and the whole value. */
  #termsOf(field: FieldKey, text: string): string[] {
    // Kind terms ("~d:light") are given finished.
    if (field === "kind") return [text];
    const key = `${field}\u0000${text}`;
    const cached = SHARED_FIELDS.has(field) ? this.#termCache.get(key) : undefined;
    if (cached) return cached;
    const segs = segments(text);
    const terms: string[] = [];
    for (const s of segs) {
      if (isUnspaced(s)) terms.push(...grams(s));
      else terms.push(stem(s));
    }
    if (segs.length && WHOLE_VALUE_FIELDS.has(field)) {
      const whole = wholeValueTerm(text);
      terms.push(whole);
      if (segs.some(isUnspaced)) this.#unspacedValues.add(whole);
    }
    if (JOINED_FIELDS.has(field)) {
      // Only words join: "livingroom" is typed, "light12" is not, and numbers would swamp the vocabulary.
      for (let i = 1; i < segs.length; i++) if (isWord(segs[i - 1]!) && isWord(segs[i]!)) terms.push(stem(segs[i - 1]! + segs[i]!));
      for (const seg of segs) {
        const parts = isWord(seg) ? this.#split(seg) : undefined;
        if (parts) terms.push(stem(parts.head), stem(parts.tail));
      }
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

  /** Rarer terms count more; dampened so that a rare word in a weak field does not win alone. */
  idf(term: string): number {
    return this.idfOf(this.#postings.get(term)?.length ?? 0);
  }

  /** The same for a term held by `df` documents. */
  idfOf(df: number): number {
    return 1 + 0.35 * Math.log(1 + this.#entityIds.length / (df + 1));
  }

  /**
   * Index terms a query token leads to: itself, the terms the vocabulary gives
   * it, longer words it starts, and, only for a word that is neither in the
   * home nor in the vocabulary (`known`), other endings of the same word and
   * near-misspellings. A correctly spelt common word is never bent onto a name.
   */
  expand(token: string, extras: ExtraTerm[], known: boolean): TermMatch[] {
    const key = `${known ? "k" : "u"}${token}|${extras.map((e) => `${e.term}:${e.quality}`).join(",")}`;
    const cached = this.#expansionCache.get(key);
    if (cached) return cached;
    const out = new Map<string, TermMatch>();
    const put = (m: TermMatch) => {
      const prior = out.get(m.term);
      if (!prior || prior.quality < m.quality) out.set(m.term, m);
    };
    const exact = token !== "" && this.#postings.has(token);
    if (exact) put({ term: token, quality: 1, kind: "exact" });
    for (const e of extras) if (this.#postings.has(e.term)) put({ term: e.term, quality: e.quality, kind: e.kind });
    const word = token.length >= 3 && isWord(token);
    if (word) for (const t of this.#terms().prefixed(token, exact ? MAX_PREFIX_TERMS_WHEN_EXACT : MAX_PREFIX_TERMS)) put({ term: t, quality: 0.7, kind: "prefix" });
    // Another ending of the same word is how inflected languages say a name ("w łazience" for Łazienka), even where
    // that form is also in another name; only a word the vocabulary knows keeps its own meaning.
    if (word && !known) for (const t of this.#terms().variants(token)) put({ term: t, quality: 0.75, kind: "variant" });
    // A misspelling, only of a word that is neither in the home nor in the vocabulary.
    if (word && !known && !exact) {
      const edits = token.length >= 5 ? allowedEdits(token.length) : 0;
      for (const [term, distance] of edits > 0 ? this.#terms().near(token, edits) : []) put({ term, quality: distance === 1 ? 0.6 : 0.45, kind: "typo" });
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
    for (const [term, posting] of this.#postings) this.#postings.set(term, posting.slice());
    // Postings are new arrays: whatever a search cached of the old ones is stale.
    this.#version++;
    this.#meta.trim();
  }

  /** Builds the lookup tables for prefixes and typos now rather than on the first query. */
  warm(): void {
    this.#terms().prefixed("\u0000");
    this.#terms().near("\u0000\u0000\u0000\u0000\u0000", 1);
  }

  #terms(): TermFinder {
    return (this.#finder ??= new TermFinder(() => this.#postings.keys()));
  }

  #vocabularyChanged(): void {
    this.#finder = null;
    this.#expansionCache.clear();
    this.#version++;
  }
}
