import { FIELDS, FIELD_BIT, MASK_BEST, MASK_SCORE } from "./fields.js";
import { TRAIT } from "./kinds.js";
import type { Preference } from "./preferences.js";
import type { Reading, ReadToken } from "./reading.js";
import type { SearchContext } from "./search-context.js";
import { fieldsIn } from "./posting.js";
import type { SearchIndex, TermMatch } from "./search-index.js";
import type { WeightedTerm } from "./weigh.js";

const NAMING_FIELDS = FIELD_BIT.name | FIELD_BIT.alias | FIELD_BIT.device | FIELD_BIT.entityId | FIELD_BIT.maker;

/** What every hit of one search is explained against. */
export interface ExplainContext {
  index: SearchIndex;
  reading: Reading;
  tokens: ReadToken[];
  /** Per token, the terms it reached that the index holds. */
  terms: (readonly WeightedTerm[])[];
  ctx: SearchContext;
  near: number;
  nearAreaName: string | undefined;
  preference: Preference;
  placeOnly: boolean;
}

/**
 * Explains the hits of one search: `why` in plain words, which words of the
 * request matched which field (area "Kitchen" matches "kitchen"; a media
 * player, which "pause" points at), the state that suits the action, the
 * area it was spoken in; and whether a word matched the entity's own name,
 * alias, device or id (not only its kind or place). The sentence is built
 * as it is read, without lists per hit: a search explains every hit it
 * returns.
 */
export function explainer(e: ExplainContext): (doc: number, eid: string) => { why: string; named: boolean } {
  const { index, reading, ctx, tokens, terms } = e;
  // Per word of the request, its best match in the document being explained: the field's index (-1: none) and the match.
  const fieldOf = new Int8Array(tokens.length);
  const matchOf: (TermMatch | undefined)[] = tokens.map(() => undefined);
  return (doc, eid) => {
    let named = false;
    for (let t = 0; t < tokens.length; t++) {
      let bestScore = 0;
      let best: TermMatch | undefined;
      let bestMask = 0;
      for (const { match: m, posting } of terms[t]!) {
        const mask = fieldsIn(posting, doc);
        if (!mask) continue;
        const s = MASK_SCORE[mask]! * m.quality;
        if (s > bestScore) {
          bestScore = s;
          best = m;
          bestMask = mask;
        }
        if (mask & NAMING_FIELDS && m.kind !== "kind" && m.kind !== "synonym") named = true;
      }
      fieldOf[t] = best ? MASK_BEST[bestMask]! : -1;
      matchOf[t] = best;
    }
    let why = "";
    const add = (part: string) => (why = why ? `${why}; ${part}` : part);
    // One phrase per matched field, in the order the request first reaches it, listing every word it explains: area "Living Room" matches "living room".
    for (let t = 0; t < tokens.length; t++) {
      const field = fieldOf[t]!;
      if (field < 0 || fieldOf.indexOf(field) < t) continue;
      let said = "";
      let hows = "";
      for (let u = t; u < tokens.length; u++) {
        if (fieldOf[u] !== field) continue;
        if (!saidBefore(tokens, fieldOf, field, t, u)) said = said ? `${said} ${tokens[u]!.shown}` : tokens[u]!.shown;
        const how = howOf(matchOf[u]!);
        if (how && !hows.includes(how)) hows += how;
      }
      const key = FIELDS[field]!.key;
      add(key === "kind" ? `${ctx.describe(eid, "kind")}, which "${said}" points at` : `${ctx.describe(eid, key)} matches "${said}"${hows}`);
    }
    for (const { word, states } of reading.states) if (ctx.inState(eid, states)) add(`state is "${word}"`);
    if (e.placeOnly) add(`nothing matched the words, and it is in "${e.nearAreaName ?? "the area"}" where the request was made`);
    else if (e.near >= 0 && index.areaOf(doc) === e.near) add(`in "${e.nearAreaName ?? "the area"}", where the request was made`);
    if (e.preference.active) {
      const suits = e.preference.explain(ctx.stateOf(eid));
      if (suits) add(suits);
    }
    if (reading.quantity && index.traitsOf(doc) & TRAIT.numeric) add("measures it");
    let unmatched = "";
    for (let t = 0; t < tokens.length; t++) {
      if (fieldOf[t] === -1 && !saidBefore(tokens, fieldOf, -1, 0, t)) unmatched = unmatched ? `${unmatched} ${tokens[t]!.shown}` : tokens[t]!.shown;
    }
    if (unmatched) add(`nothing matches "${unmatched}"`);
    return { why: why || "matches the request", named };
  };
}

/** Whether a word the same as word `u` came earlier in the same group (from `from` on): a word said twice is listed once. */
function saidBefore(tokens: ReadToken[], fieldOf: Int8Array, field: number, from: number, u: number): boolean {
  for (let v = from; v < u; v++) if (fieldOf[v] === field && tokens[v]!.shown === tokens[u]!.shown) return true;
  return false;
}

/** How a word reached a term other than itself, for `why`; empty when it matched as written or through its kind. */
function howOf(m: TermMatch): string {
  switch (m.kind) {
    case "typo":
      return ` (typo for "${m.term}")`;
    case "prefix":
      return ` (start of "${m.term}")`;
    case "variant":
      return ` (another form of "${m.term}")`;
    case "synonym":
      return ` (synonym "${m.term}")`;
    default:
      return "";
  }
}
