/**
 * Turns names, ids and queries into comparable tokens: accents folded, case
 * lowered, snake_case and camelCase split, plurals reduced to singulars. The
 * same function runs on the index side and the query side, so whatever it
 * does wrongly it does the same way on both.
 */

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const CAMEL_BOUNDARY = /([a-z0-9])([A-Z])/g;
const NON_WORD = /[^a-z0-9]+/;

/** Folds accents and case: "Küche" → "kuche". Keeps separators as they are. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(COMBINING_MARKS, "").replace(/ß/g, "ss").toLowerCase();
}

/** Splits text into raw lower-case words, without stemming. */
export function words(text: string): string[] {
  const spaced = text.replace(CAMEL_BOUNDARY, "$1 $2");
  return fold(spaced)
    .split(NON_WORD)
    .filter((w) => w.length > 0);
}

/**
 * Reduces an English plural to its singular. Deliberately small: it only has
 * to map "lights" onto "light" and "batteries" onto "battery", and it must
 * never merge two different words a user would tell apart.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is|ous)$/.test(word)) return word;
  if (/(sses|xes|ches|shes|zzes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** Words that carry no meaning for finding an entity. */
const STOPWORDS = new Set([
  "a", "an", "the", "of", "in", "at", "to", "for", "and", "or", "my", "our", "me", "all", "any", "every",
  "what", "which", "whats", "is", "are", "s", "show", "list", "find", "get", "give", "please", "there",
  "with", "from", "by", "that", "this", "these", "those", "it", "its",
  "turn", "can", "you", "i", "do", "does", "how", "now", "currently", "tell", "about", "were", "was", "be",
]);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Index-side tokens: every word, stemmed. Stopwords stay so names keep all their words. */
export function tokens(text: string): string[] {
  return words(text).map(stem);
}

/** Query-side tokens: stemmed, stopwords dropped (unless nothing else is left). */
export function queryTokens(text: string): string[] {
  const all = words(text);
  const kept = all.filter((w) => !isStopword(w));
  return (kept.length > 0 ? kept : all).map(stem);
}
