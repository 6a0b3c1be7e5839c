import type { AreaInfo } from "./model.js";
import { isUnspaced, segments, stem } from "./tokenize.js";

/** Two words are the same word when equal, or when one is another ending of the other ("kuchni", "kuchnia"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= 4 && common >= 0.6 * Math.max(a.length, b.length) && a.length - common <= 3 && b.length - common <= 3;
}

const wordsOf = (text: string) => segments(text).map((s) => (isUnspaced(s) ? s : stem(s)));

/**
 * The area a phrase mentions by its name or an alias, in any form of its
 * words; the longest mention wins. Undefined when it mentions none.
 */
export function areaInText(text: string, areas: Iterable<AreaInfo>): string | undefined {
  const words = wordsOf(text);
  const joined = segments(text).join(" ");
  let best: { id: string; length: number } | undefined;
  for (const area of areas) {
    for (const name of [area.name, ...area.aliases]) {
      const wanted = wordsOf(name);
      if (!wanted.length) continue;
      const length = wanted.join(" ").length;
      if (best && best.length >= length) continue;
      const unspaced = wanted.some(isUnspaced);
      const found = unspaced
        ? joined.includes(segments(name).join(" "))
        : words.some((_, i) => wanted.every((w, j) => words[i + j] !== undefined && sameWord(words[i + j]!, w)));
      if (found) best = { id: area.areaId, length };
    }
  }
  return best?.id;
}
