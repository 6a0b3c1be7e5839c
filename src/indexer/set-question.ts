import { segments } from "./tokenize.js";

/**
 * Words that ask about every member of a set: "is *any* window open?",
 * "are *all* lights off?", "*which* doors are open?", "*how many* lights
 * are on?". "Which one" asks for one, so it is left out below.
 */
const QUANTIFIERS = new Set(["any", "anything", "all", "every", "everything", "each", "which", "whichever"]);
const PHRASES = [["how", "many"], ["are", "there"]];

/** The plural forms English gives a noun: light → lights, switch → switches, battery → batteries. */
export function pluralsOf(noun: string): string[] {
  const out = [`${noun}s`];
  if (/(s|x|z|ch|sh)$/.test(noun)) out.unshift(`${noun}es`);
  if (/[^aeiou]y$/.test(noun)) out.unshift(`${noun.slice(0, -1)}ies`);
  return out;
}

/** A noun's usual plural: the first of its plural forms. */
export const pluralOf = (noun: string): string => pluralsOf(noun)[0]!;

/** What a set of search results is called: its shared device class or domain ("garage_door" → "garage door"), or its name's last word. */
export interface KindWords {
  domain: string;
  deviceClass: string | null;
  name: string;
}

/**
 * Whether a request asks about a whole set rather than one thing: it has a
 * quantifier ("any", "all", "every", "each", "which", "how many"), or it
 * names a kind of the results in the plural ("windows", "lights",
 * "garage doors", "batteries"). Then several equal matches are the answer,
 * not an ambiguity. The plural is returned when the request has one.
 */
export function asksAboutSet(query: string, results: readonly KindWords[]): { set: boolean; plural?: string } {
  const words = segments(query);
  const text = ` ${words.join(" ")} `;
  for (const r of results) {
    const nouns = [r.domain, r.deviceClass, r.name.split(/\s+/).at(-1)].filter((n): n is string => !!n).map((n) => segments(n).join(" "));
    for (const noun of nouns) {
      const plural = pluralsOf(noun).find((p) => text.includes(` ${p} `));
      if (plural) return { set: true, plural };
    }
  }
  const quantified = words.some((w, i) => QUANTIFIERS.has(w) && !(w === "which" && words[i + 1] === "one"));
  const phrased = PHRASES.some((p) => text.includes(` ${p.join(" ")} `));
  return { set: quantified || phrased };
}
