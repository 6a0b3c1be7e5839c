import type { ReadToken } from "./reading.js";
import type { ExtraTerm, SearchIndex, TermMatch } from "./search-index.js";
import { synonymsOf } from "./synonyms.js";
import type { KindRef } from "./vocabulary/index.js";
import { weighTerms, type WeightedTerm } from "./weigh.js";

const SYNONYM_QUALITY = 0.85;
/** A word read without its attached article or preposition counts nearly as the word itself. */
const BARE_FORM = 0.95;
const MAX_CACHED = 5000;

interface Expanded {
  matches: TermMatch[];
  /** What each term is worth, and the document count it was weighed at: rarity moves as documents come. */
  terms?: readonly WeightedTerm[];
  weighedAt?: number;
}

/**
 * The index terms a query word leads to: what the index finds for the word
 * itself, the kinds the vocabulary gives it, its synonyms, and the word read
 * without a prefix its language writes onto it. Cached by the word, whether
 * it is known, and its kinds (the vocabulary hands out the same kind lists
 * every time), until the index gains a term.
 */
export class Expansions {
  readonly #cache = new Map<string, Expanded>();
  #version = -1;
  readonly #kindIds = new WeakMap<readonly KindRef[], number>();
  #nextKindsId = 0;

  constructor(private readonly index: SearchIndex) {}

  of(token: ReadToken): TermMatch[] {
    return this.#entry(token).matches;
  }

  /** The terms the word reaches that the index holds, with what a match in each is worth (weighTerms). */
  weighed(token: ReadToken): readonly WeightedTerm[] {
    const entry = this.#entry(token);
    if (entry.weighedAt !== this.index.docCount) {
      entry.terms = weighTerms(this.index, token, entry.matches);
      entry.weighedAt = this.index.docCount;
    }
    return entry.terms!;
  }

  #entry(token: ReadToken): Expanded {
    if (this.#version !== this.index.version || this.#cache.size > MAX_CACHED) {
      this.#cache.clear();
      this.#version = this.index.version;
    }
    let kindsId = this.#kindIds.get(token.kinds);
    if (kindsId === undefined) this.#kindIds.set(token.kinds, (kindsId = this.#nextKindsId++));
    // Weights also depend on whether the word is a verb and on the word itself: both are in the key.
    const key = `${kindsId}\u0001${token.known ? 1 : 0}\u0001${token.verb ? 1 : 0}\u0001${token.term}\u0001${token.bare ?? ""}`;
    let entry = this.#cache.get(key);
    if (!entry) {
      entry = { matches: this.#expand(token) };
      this.#cache.set(key, entry);
    }
    return entry;
  }

  #expand(token: ReadToken): TermMatch[] {
    const extras: ExtraTerm[] = token.kinds.map((k) => ({ term: k.term, quality: k.quality, kind: "kind" }));
    if (token.term) for (const s of synonymsOf(token.term)) extras.push({ term: s, quality: SYNONYM_QUALITY, kind: "synonym" });
    const out = this.index.expand(token.term, extras, token.known);
    if (!token.bare) return out;
    // "במטבח" is also "מטבח" with "in the" before it.
    const seen = new Set(out.map((m) => m.term));
    const bare = this.index.expand(token.bare, [], token.known).filter((m) => !seen.has(m.term));
    return [...out, ...bare.map((m) => ({ term: m.term, quality: m.quality * BARE_FORM, kind: m.kind === "exact" ? ("variant" as const) : m.kind }))];
  }
}
