import type { ReadToken } from "./read-token.js";
import { grams } from "./tokenize.js";
import { NO_KINDS, type Sense } from "./vocabulary/index.js";

/** Whether a sense names something (a kind of device), rather than only shaping the request. */
export function names(sense: Sense | undefined): boolean {
  return Boolean(sense && (sense.thing || sense.quantity || (sense.action && sense.action.kinds.length)));
}

/**
 * The character pairs (and Chinese characters) of an unspaced run as
 * tokens. Those wholly inside a word of the vocabulary are read with that
 * word: not at all inside a verb or a small word ("打开" turn on, "的"), and
 * inside a noun only as the noun itself (its own token, with its kinds), so
 * "音" of "音乐" (music) does not match every "音箱" (speaker) by name. The
 * inner pairs of a longer noun ("扫地机器人") still count half, for names
 * that hold part of it.
 */
export function gramTokens(run: string, found: { key: string; at: number; sense: Sense }[]): ReadToken[] {
  const chars = [...run];
  // Which found word covers each character (findUnspaced gives UTF-16 positions; these scripts are in the basic plane).
  const by = new Array<{ key: string; at: number; sense: Sense } | undefined>(chars.length).fill(undefined);
  for (const f of found) for (let i = f.at; i < f.at + f.key.length; i++) by[i] = f;
  const wanted = new Set(grams(run));
  const out: ReadToken[] = [];
  const push = (g: string, from: number, to: number) => {
    if (!wanted.has(g)) return;
    const word = by[from];
    let inside = word !== undefined;
    for (let i = from; i < to; i++) if (by[i] !== word) inside = false;
    const weight = !inside ? 1 : !names(word!.sense) || g === word!.key || to - from === 1 ? 0 : 0.5;
    out.push({ term: g, shown: g, weight, kinds: NO_KINDS, known: false });
  };
  for (let i = 0; i < chars.length; i++) push(chars[i]!, i, i + 1);
  for (let i = 0; i + 1 < chars.length; i++) push(chars[i]! + chars[i + 1]!, i, i + 2);
  return out;
}
