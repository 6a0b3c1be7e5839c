import { allowedEdits, editDistance } from "./fuzzy.js";
import { isUnspaced } from "./tokenize.js";

const MAX_VARIANTS = 12;
export const MAX_PREFIX_TERMS = 40;

/** A word a misspelling or another ending can be read as: letters of any script, no digits, not Chinese or Japanese. */
export const isWord = (t: string): boolean => /^\p{L}/u.test(t) && !/\d/.test(t) && !isUnspaced(t);

/**
 * Looks up the index's terms that a query word may stand for: longer words
 * it starts, other endings of it, near-misspellings. Built from the terms
 * the index has when first asked, and thrown away when the index gains one.
 */
export class TermFinder {
  #byLength: Map<number, string[]> | null = null;
  #sorted: string[] | null = null;

  constructor(private readonly terms: () => Iterable<string>) {}

  #sortedTerms(): string[] {
    return (this.#sorted ??= [...this.terms()].sort());
  }

  /** Index of the first term not below `prefix`. */
  #lowerBound(prefix: string): number {
    const sorted = this.#sortedTerms();
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Terms that start with `prefix` and are longer, at most `max`, in order. */
  prefixed(prefix: string, max = MAX_PREFIX_TERMS): string[] {
    const sorted = this.#sortedTerms();
    const out: string[] = [];
    for (let i = this.#lowerBound(prefix); i < sorted.length && out.length < max; i++) {
      const t = sorted[i]!;
      if (!t.startsWith(prefix)) break;
      if (t !== prefix) out.push(t);
    }
    return out;
  }

  /**
   * Terms that are the same word with another ending: they share a beginning
   * of at least four letters and six tenths of the longer word, and each
   * ending is at most three letters. This is how inflected languages name a
   * room ("w kuchni", "на кухне") whose area is "Kuchnia" or "Кухня".
   */
  variants(token: string): string[] {
    const sorted = this.#sortedTerms();
    const out: string[] = [];
    for (let len = token.length - 1; len >= 4 && token.length - len <= 3; len--) {
      const prefix = token.slice(0, len);
      for (let i = this.#lowerBound(prefix); i < sorted.length && out.length < MAX_VARIANTS; i++) {
        const t = sorted[i]!;
        if (!t.startsWith(prefix)) break;
        if (t.length - len > 3 || !isWord(t) || out.includes(t)) continue;
        // The shared beginning is exactly `len` letters long, and long enough for both words.
        if (t.length > len && t[len] === token[len]) continue;
        if (len < 0.6 * Math.max(t.length, token.length)) continue;
        out.push(t);
      }
    }
    return out;
  }

  /** Terms within `maxEdits` edits of `token`, with their distance. */
  near(token: string, maxEdits: number): [string, number][] {
    if (!this.#byLength) {
      this.#byLength = new Map();
      for (const term of this.terms()) {
        // Numbers, whole-value and kind terms are never what a misspelt word meant.
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
