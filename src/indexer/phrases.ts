import { FIELD_BIT } from "./fields.js";
import type { ReadToken } from "./reading.js";
import { docOf, fieldsOf, type Posting } from "./posting.js";
import { phraseTerm, type SearchIndex, type TermMatch } from "./search-index.js";
import { STRIDE, TOTAL } from "./score-slots.js";
import { isUnspaced, segments } from "./tokenize.js";

// Extra score when some words of the query are exactly an area, floor or label.
const WHOLE_VALUE_BONUS = 1.2;
// Runs longer than this name nothing a home calls by name.
const MAX_PHRASE = 4;

/** A run of request words that is exactly an area's, floor's or label's value, and what saying it is worth. */
export interface Phrase {
  posting: Posting;
  bonus: number;
  /** A single word for a kind of device: it names an area, never a label ("lights" is not the label "Lighting"). */
  kindWord: boolean;
}

/**
 * The whole values (areas, floors, labels) a request names by a run of its
 * words, reading misspelt or inflected words as the words they were taken
 * for; names written without spaces are found inside the request. A value
 * said twice is listed twice.
 */
export function phrasesOf(args: { index: SearchIndex; tokens: ReadToken[]; expansions: TermMatch[][]; runs: string[] }): Phrase[] {
  const { index, tokens, expansions, runs } = args;
  const out: Phrase[] = [];
  const add = (term: string, kindWord = false) => {
    const posting = index.posting(term);
    if (posting) out.push({ posting, bonus: WHOLE_VALUE_BONUS * index.idfOf(posting.length), kindWord });
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
      const kindWord = len === 1 && spaced[i]!.kinds.length > 0;
      // Most runs have one reading a word: the phrase is the words as typed.
      if (len > 2 || readings.slice(i, i + len).every((r) => r.length === 1)) {
        add(phraseTerm(spaced.slice(i, i + len).map((t) => t.term)), kindWord);
        continue;
      }
      for (const phrase of combinations(readings.slice(i, i + len))) add(phraseTerm(phrase), kindWord);
    }
  }
  const values = index.unspacedValues();
  if (values.size && runs.length) {
    const text = runs.join(" ");
    for (const v of values) if (segments(v.slice(1)).every((s) => text.includes(s))) add(v);
  }
  return out;
}

/** Whether the request names an area in full ("in the kitchen"): then where it was spoken no longer matters. */
export function namesArea(phrases: readonly Phrase[]): boolean {
  return phrases.some((p) => p.posting.some((entry) => (fieldsOf(entry) & FIELD_BIT.area) !== 0));
}

/** The most the phrases can add to one document. */
export function mostForPhrases(phrases: readonly Phrase[]): number {
  return phrases.reduce((sum, p) => sum + p.bonus, 0);
}

/** Rewards the documents being scored (those with a total in `acc`) whose area, floor or label a phrase names. */
export function rewardPhrases(acc: Float64Array, phrases: readonly Phrase[]): void {
  for (const { posting, bonus, kindWord } of phrases) {
    for (const entry of posting) {
      const at = docOf(entry) * STRIDE + TOTAL;
      if (acc[at]! <= 0) continue;
      // "lights" asks for lights, not for whatever carries a label "Lighting".
      if (kindWord && !(fieldsOf(entry) & FIELD_BIT.area)) continue;
      acc[at]! += bonus;
    }
  }
}

/** Every way of picking one reading per position: [[a, b], [c]] → [a, c], [b, c]. */
function combinations(choices: string[][]): string[][] {
  let out: string[][] = [[]];
  for (const options of choices) out = out.flatMap((prefix) => options.map((o) => [...prefix, o]));
  return out;
}
