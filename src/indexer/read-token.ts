import type { KindRef } from "./vocabulary/index.js";

/** One word of a request as the search scores it. */
export interface ReadToken {
  /** The stemmed token looked up in the index; empty for a word that only implies kinds. */
  term: string;
  /** The word as typed (folded), for `why`. */
  shown: string;
  /** How much the word counts: 1 names something, less for soft words and the payload of a command ("add *milk* to…"), 0 skips it. */
  weight: number;
  /** Kinds of device the word points at, from the vocabulary (the same list for the same word, every time). */
  kinds: readonly KindRef[];
  /** A word of the vocabulary or of the grammar: never read as a misspelling or another form of a name. */
  known: boolean;
  /** Used as a verb ("*water* the lawn"): a name that merely contains the word is weaker evidence than its kind. */
  verb?: boolean;
  /** The word without a prefix its language writes onto it (Hebrew "במטבח" → "מטבח", Arabic "المطبخ" → "مطبخ"). */
  bare?: string;
}
