import { FIELD_BIT } from "./fields.js";
import type { ReadToken } from "./reading.js";
import { phraseTerm, type SearchIndex, type TermMatch } from "./search-index.js";
import { STRIDE, TOTAL } from "./score-slots.js";
import { isUnspaced, segments } from "./tokenize.js";

// Extra score when some words of the query are exactly an area, floor or label.
const WHOLE_VALUE_BONUS = 1.2;
// Runs longer than this name nothing a home calls by name.
const MAX_PHRASE = 4;

/**
 * Rewards documents whose area, floor or label is named exactly by a run of
 * query words, reading misspelt or inflected words as the words they were
 * taken for; names written without spaces are found inside the request.
 * Returns whether an area was named so.
 */
export function wholeValueBonus(args: { index: SearchIndex; acc: Float64Array; tokens: ReadToken[]; expansions: TermMatch[][]; runs: string[] }): boolean {
  const { index, acc, tokens, expansions, runs } = args;
  let namedArea = false;
  const reward = (term: string, kindWord = false) => {
    const posting = index.posting(term);
    if (!posting) return;
    const idf = index.idf(term);
    for (let i = 0; i < posting.docs.length; i++) {
      const doc = posting.docs[i]!;
      const mask = posting.masks[i]!;
      if (mask & FIELD_BIT.area) namedArea = true;
      const at = doc * STRIDE + TOTAL;
      if (acc[at]! <= 0) continue;
      // "lights" asks for lights, not for whatever carries a label "Lighting".
      if (kindWord && !(mask & FIELD_BIT.area)) continue;
      acc[at]! += WHOLE_VALUE_BONUS * idf;
    }
  };
  const spacedAt = tokens.map((t, i) => (t.term !== "" && !isUnspaced(t.term) ? i : -1)).filter((i) => i >= 0);
  const spaced = spacedAt.map((i) => tokens[i]!);
  const readings = spacedAt.map((i) => [
    tokens[i]!.term,
    ...expansions[i]!
      .filter((m) => m.kind === "typo" || m.kind === "variant" || (m.kind === "prefix" && m.term.length - tokens[i]!.term.length <= 2))
      .slice(0, 3)
      .map((m) => m.term),
  ]);
  for (let len = 1; len <= Math.min(MAX_PHRASE, spaced.length); len++) {
    for (let i = 0; i + len <= spaced.length; i++) {
      // Longer runs are read as typed only; every reading of every word would multiply out.
      const choices = len <= 2 ? readings.slice(i, i + len) : spaced.slice(i, i + len).map((t) => [t.term]);
      const kindWord = len === 1 && spaced[i]!.kinds.length > 0;
      for (const phrase of combinations(choices)) reward(phraseTerm(phrase), kindWord);
    }
  }
  const values = index.unspacedValues();
  if (values.size && runs.length) {
    const text = runs.join(" ");
    for (const v of values) if (segments(v.slice(1)).every((s) => text.includes(s))) reward(v);
  }
  return namedArea;
}

/** Every way of picking one reading per position: [[a, b], [c]] → [a, c], [b, c]. */
function combinations(choices: string[][]): string[][] {
  // Most runs are one word with one reading: no need to build anything.
  if (choices.length === 1 && choices[0]!.length === 1) return choices;
  let out: string[][] = [[]];
  for (const options of choices) out = out.flatMap((prefix) => options.map((o) => [...prefix, o]));
  return out;
}
