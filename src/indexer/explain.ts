import { FIELDS, FIELD_BIT, MASK_BEST, MASK_SCORE, type FieldKey } from "./fields.js";
import { TRAIT } from "./kinds.js";
import type { Preference } from "./preferences.js";
import type { Reading, ReadToken } from "./reading.js";
import type { SearchContext } from "./search-context.js";
import type { SearchIndex, TermMatch } from "./search-index.js";

const NAMING_FIELDS = FIELD_BIT.name | FIELD_BIT.alias | FIELD_BIT.device | FIELD_BIT.entityId | FIELD_BIT.maker;

/**
 * A hit's `why`, in plain words: which words of the request matched which
 * field (area "Kitchen" matches "kitchen"; a media player, which "pause"
 * points at), the state that suits the action, the area it was spoken in.
 * Also whether a word matched the entity's own name, alias, device or id
 * (not only its kind or place).
 */
export function explainHit(args: {
  index: SearchIndex;
  doc: number;
  eid: string;
  reading: Reading;
  tokens: ReadToken[];
  expansions: TermMatch[][];
  ctx: SearchContext;
  near: number;
  nearAreaName: string | undefined;
  preference: Preference;
  placeOnly: boolean;
}): { why: string; named: boolean } {
  const { index, doc, eid, reading, ctx, tokens, expansions } = args;
  // One phrase per matched field, listing every query word it explains: area "Living Room" matches "living room".
  const fields: FieldKey[] = [];
  const words: string[][] = [];
  const hows: string[] = [];
  const unmatched: string[] = [];
  let named = false;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    let bestScore = 0;
    let best: TermMatch | undefined;
    let bestMask = 0;
    for (const m of expansions[t]!) {
      const mask = index.maskOf(m.term, doc);
      if (!mask) continue;
      const s = MASK_SCORE[mask]! * m.quality;
      if (s > bestScore) {
        bestScore = s;
        best = m;
        bestMask = mask;
      }
      if (mask & NAMING_FIELDS && m.kind !== "kind" && m.kind !== "synonym") named = true;
    }
    if (!best) {
      if (!unmatched.includes(token.shown)) unmatched.push(token.shown);
      continue;
    }
    const field = FIELDS[MASK_BEST[bestMask]!]!.key;
    const how = best.kind === "typo" ? ` (typo for "${best.term}")` : best.kind === "prefix" ? ` (start of "${best.term}")` : best.kind === "variant" ? ` (another form of "${best.term}")` : best.kind === "synonym" ? ` (synonym "${best.term}")` : "";
    let at = fields.indexOf(field);
    if (at < 0) {
      at = fields.push(field) - 1;
      words.push([]);
      hows.push("");
    }
    if (!words[at]!.includes(token.shown)) words[at]!.push(token.shown);
    if (how && !hows[at]!.includes(how)) hows[at] += how;
  }
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const said = words[i]!.join(" ");
    out.push(fields[i] === "kind" ? `${ctx.describe(eid, "kind")}, which "${said}" points at` : `${ctx.describe(eid, fields[i]!)} matches "${said}"${hows[i]}`);
  }
  for (const { word, states } of reading.states) if (ctx.inState(eid, states)) out.push(`state is "${word}"`);
  if (args.placeOnly) out.push(`nothing matched the words, and it is in "${args.nearAreaName ?? "the area"}" where the request was made`);
  else if (args.near >= 0 && index.areaOf(doc) === args.near) out.push(`in "${args.nearAreaName ?? "the area"}", where the request was made`);
  if (args.preference.active) {
    const suits = args.preference.explain(ctx.stateOf(eid));
    if (suits) out.push(suits);
  }
  if (reading.quantity && index.traitsOf(doc) & TRAIT.numeric) out.push("measures it");
  if (unmatched.length) out.push(`nothing matches "${unmatched.join(" ")}"`);
  return { why: out.join("; ") || "matches the request", named };
}