/**
 * Turns names, ids and queries into comparable tokens, in any script:
 * case and accents folded, snake_case and camelCase split, English verb and
 * noun endings reduced, and runs of Chinese, Japanese or Thai characters
 * (written without spaces) cut into overlapping character pairs. The same
 * function runs on the index side and the query side, so whatever it does
 * wrongly it does the same way on both.
 */

const CAMEL_BOUNDARY = /(\p{Ll}|\d)(\p{Lu})/gu;
// Letters, digits and the marks that belong to them (Devanagari vowel signs, Thai tones).
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
// Accents on Latin, Greek and Cyrillic letters carry no meaning for matching; marks of other scripts do.
const FOLDABLE_MARKS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]/u;
const HAN = /\p{Script=Han}/u;
const LETTERS_WITHOUT_DECOMPOSITION = new Map([
  ["ł", "l"], ["ø", "o"], ["đ", "d"], ["ß", "ss"], ["æ", "ae"], ["œ", "oe"], ["ı", "i"], ["þ", "th"], ["ð", "d"], ["ħ", "h"],
]);
const SPECIAL = /[łøđßæœıþðħ]/g;

/** Folds width, case and accents: "Küche" → "kuche", "Łazienka" → "lazienka", "Ёлка" → "елка", "ＴＶ" → "tv". */
export function fold(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(FOLDABLE_MARKS, "$1")
    .normalize("NFC")
    .replace(SPECIAL, (c) => LETTERS_WITHOUT_DECOMPOSITION.get(c) ?? c);
}

export const isUnspaced = (word: string): boolean => UNSPACED.test(word);

/**
 * Runs of folded letters and digits, camelCase split, unspaced scripts kept
 * whole: "KücheTür 客厅灯" → ["kuche", "tur", "客厅灯"].
 */
export function segments(text: string): string[] {
  const out: string[] = [];
  for (const w of fold(text.replace(CAMEL_BOUNDARY, "$1 $2")).match(WORD) ?? []) {
    if (!isUnspaced(w)) {
      out.push(w);
      continue;
    }
    // Split mixed runs ("led灯带") into their spaced and unspaced parts.
    let run = "";
    let unspaced = false;
    for (const ch of w) {
      const u = UNSPACED.test(ch);
      if (run && u !== unspaced) {
        out.push(run);
        run = "";
      }
      unspaced = u;
      run += ch;
    }
    if (run) out.push(run);
  }
  return out;
}

/**
 * The pieces an unspaced run is matched by: every pair of neighbouring
 * characters, and each Chinese character alone (one Han character is often a
 * word: 灯 light, 门 door). Kana alone carry no meaning and are left out.
 */
export function grams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (const c of chars) if (HAN.test(c)) out.push(c);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  if (chars.length === 1 && !HAN.test(chars[0]!)) out.push(chars[0]!);
  return out;
}

/** Words as matched: spaced words as they are, unspaced runs as their character pairs. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of segments(text)) {
    if (isUnspaced(s)) out.push(...grams(s));
    else out.push(s);
  }
  return out;
}

const VOWEL = /[aeiouy]/;
const UNDOUBLE = /([bdfgkmnprt])\1$/;

/**
 * Reduces English noun and verb endings to a common stem: "lights" and
 * "lighting" → "light", "vacuuming" → "vacuum", "closed", "closing" and
 * "close" → "clos", "batteries" → "battery". Stems need not be words; they
 * only have to be equal for the forms of one word and different for
 * different words. Words with digits or outside a-z are left as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(sses|xes|ches|shes|zzes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is|ous)$/.test(w)) w = w.slice(0, -1);
  // The stem keeps four letters: "living" stays, so "livng" is still one typo away from it.
  if (w.endsWith("ing") && w.length >= 7 && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && !w.endsWith("eed") && w.length >= 5 && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  // "close", "closed" and "closing" meet at "clos"; four-letter words ("home", "note") keep their e.
  if (w.length >= 5 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return UNDOUBLE.test(w) ? w.slice(0, -1) : w;
}

/** Index-side tokens: every word, stemmed. */
export function tokens(text: string): string[] {
  return words(text).map(stem);
}
