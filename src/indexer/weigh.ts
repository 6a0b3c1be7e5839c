import { FIELD_BIT } from "./fields.js";
import type { ReadToken } from "./read-token.js";
import type { Posting } from "./posting.js";
import type { SearchIndex, TermMatch } from "./search-index.js";

/** For a word that is both a kind and a name word ("lamp"), being of the kind counts a little less than bearing the name. */
const KIND_OF_NAMED_WORD = 0.9;
/** A name that merely contains the verb of a command ("Towel *Warmer*" for "make it warmer") is weaker evidence than the kind the verb acts on. */
const VERB_AS_NAME = 0.6;

/** One index term a query word reaches, with what a match in it is worth. */
export interface WeightedTerm {
  /** The expansion it comes from: the term, how it was reached, how good a match. */
  match: TermMatch;
  posting: Posting;
  /** Multiplies the field score of a match (MASK_SCORE of its fields). */
  weight: number;
  /** FIELD_BIT.name when a match in the name counts towards saying the whole name, else 0. */
  nameBit: number;
}

/**
 * What each term a query word expands to is worth: its match quality times
 * the rarity of the word, with the corrections that keep a word from
 * counting for more than the user said. Terms the index does not hold are
 * left out.
 */
export function weighTerms(index: SearchIndex, token: ReadToken, expansions: readonly TermMatch[]): WeightedTerm[] {
  // A longer, respelled or implied term may not count as rarer than the word the user actually typed.
  const own = token.term ? index.posting(token.term) : undefined;
  const ownIdf = own ? index.idfOf(own.length) : Infinity;
  // A word for a kind of device ("lamp") counts nearly the same whether an entity is one or is named so:
  // a light not called "lamp" is almost as good a lamp as the "Desk Lamp", so where it is or what state
  // it is in can decide between them, while "lantern" still finds the "Patio Lantern" first.
  const kindWord = token.kinds.length > 0 && ownIdf !== Infinity;
  const out: WeightedTerm[] = [];
  for (const m of expansions) {
    const posting = index.posting(m.term);
    if (!posting) continue;
    // A misspelling earns no rarity: a rare name must not win on a word the user did not write.
    let weight = m.kind === "typo" ? m.quality : kindWord ? m.quality * ownIdf * (m.kind === "kind" ? KIND_OF_NAMED_WORD : 1) : m.quality * Math.min(index.idfOf(posting.length), ownIdf);
    if (token.verb && m.kind !== "kind") weight *= VERB_AS_NAME;
    // A word of the name said as written, in another form, a letter or two short, or misspelt counts towards saying the whole name.
    const namesWord = m.kind === "exact" || m.kind === "variant" || m.kind === "typo" || (m.kind === "prefix" && m.term.length - token.term.length <= 2);
    out.push({ match: m, posting, weight, nameBit: namesWord ? FIELD_BIT.name : 0 });
  }
  return out;
}
