import { estimateTokens } from "../../models/index.js";

/** The tokens a result takes as the caller reads it: its JSON, at the project's four characters a token. */
export const tokensOf = (value: unknown): number => estimateTokens(JSON.stringify(value));

/** The largest whole number in [lo, hi] for which `fits` holds, when `fits` only turns false as the number grows; undefined when even `lo` does not fit. */
export function largestFitting(lo: number, hi: number, fits: (n: number) => boolean): number | undefined {
  if (!fits(lo)) return undefined;
  if (fits(hi)) return hi;
  let good = lo;
  let bad = hi;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (fits(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/** The sentence every cut result ends with: how to get what was left out. */
export const more = (narrower: string): string => `For more, ask for ${narrower}, or raise max_tokens.`;
