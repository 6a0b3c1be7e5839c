import { FIELDS, MASK_BEST, MASK_SCORE, type FieldKey } from "./fields.js";
import { wholeValueTerm, type SearchIndex, type TermMatch } from "./search-index.js";
import { STATE_WORDS, synonymsOf } from "./synonyms.js";
import { queryTokens, words } from "./tokenize.js";

/** One hit, best first. `why` says in words which parts of the query matched what. */
export interface SearchHit {
  entityId: string;
  score: number;
  why: string;
}

/** What the engine needs to know about a document beyond its tokens. */
export interface SearchContext {
  /** Current state value, for "what's on" style words; undefined when the entity has none. */
  stateOf(entityId: string): string | undefined;
  /** Hard filters and hidden-entity rules; only documents that pass can be returned. */
  accept(entityId: string): boolean;
  /** A short description of a field's value for `why`, e.g. `area "Kitchen"`. */
  describe(entityId: string, field: FieldKey): string;
  /** Orders equal scores: shorter names first, then by id. */
  tieName(entityId: string): string;
}

// A state word that matches the entity's current state counts like a strong field match.
const STATE_MATCH_SCORE = 3.0;
// Extra score when some words of the query are exactly an area, floor or label.
const WHOLE_VALUE_BONUS = 1.2;
const MAX_PHRASE = 3;

/**
 * Ranks documents for a free-text query. Each query word is scored on its
 * best field in each document (weighted by field, match quality and rarity),
 * the word scores are added, and documents that miss words are pushed down
 * by the square of the share of words they matched.
 */
export class SearchEngine {
  #best = new Float64Array(0);
  #total = new Float64Array(0);
  #matched = new Uint8Array(0);

  constructor(private readonly index: SearchIndex) {}

  search(query: string, ctx: SearchContext, limit: number): SearchHit[] {
    const toks = [...new Set(queryTokens(query))];
    if (toks.length === 0) return this.#unranked(ctx, limit);
    this.#ensureCapacity();
    const best = this.#best;
    const total = this.#total;
    const matched = this.#matched;
    const touched: number[] = [];
    const inTouched = (doc: number) => total[doc]! > 0 || matched[doc]! > 0;

    const stateTokens = toks.filter((t) => STATE_WORDS.has(t));
    for (const token of toks) {
      if (STATE_WORDS.has(token)) continue; // scored below, once the candidates are known
      const local = this.#scoreToken(token);
      for (const doc of local) {
        if (!inTouched(doc)) touched.push(doc);
        total[doc]! += best[doc]!;
        matched[doc]!++;
        best[doc] = 0;
      }
    }
    // A state word rescores the candidates the other words found (or everything, if there are no others).
    for (const token of stateTokens) {
      const local = this.#scoreToken(token);
      const pool = stateTokens.length < toks.length ? [...touched] : this.#allDocs();
      for (const doc of pool) {
        const s = Math.max(best[doc]!, ctx.stateOf(this.index.entityIdOf(doc)) === token ? STATE_MATCH_SCORE : 0);
        best[doc] = 0;
        if (s === 0) continue;
        if (!inTouched(doc)) touched.push(doc);
        total[doc]! += s;
        matched[doc]!++;
      }
      for (const doc of local) best[doc] = 0;
    }

    this.#wholeValueBonus(toks);

    const n = toks.length;
    const top: { doc: number; score: number; tie: string }[] = [];
    for (const doc of touched) {
      const cover = matched[doc]! / n;
      const score = total[doc]! * cover * cover;
      total[doc] = 0;
      matched[doc] = 0;
      if (!this.index.isAlive(doc)) continue;
      const eid = this.index.entityIdOf(doc);
      if (top.length >= limit && score < top[top.length - 1]!.score) continue;
      if (!ctx.accept(eid)) continue;
      insertTop(top, { doc, score, tie: ctx.tieName(eid) }, limit);
    }
    return top.map(({ doc, score }) => {
      const eid = this.index.entityIdOf(doc);
      return { entityId: eid, score: Math.round(score * 1000) / 1000, why: this.#explain(doc, eid, toks, query, ctx) };
    });
  }

  /** Rewards documents whose area, floor or label is named exactly by a run of query words. */
  #wholeValueBonus(toks: string[]): void {
    const total = this.#total;
    for (let len = 1; len <= Math.min(MAX_PHRASE, toks.length); len++) {
      for (let i = 0; i + len <= toks.length; i++) {
        const term = wholeValueTerm(toks.slice(i, i + len));
        const posting = this.index.posting(term);
        if (!posting) continue;
        const bonus = WHOLE_VALUE_BONUS * this.index.idf(term);
        for (const doc of posting.docs) if (total[doc]! > 0) total[doc]! += bonus;
      }
    }
  }

  /** Puts each document's best score for one query word into `#best`; returns the documents touched. */
  #scoreToken(token: string): number[] {
    const best = this.#best;
    const local: number[] = [];
    for (const m of this.#expansions(token)) {
      const posting = this.index.posting(m.term);
      if (!posting) continue;
      const weight = m.quality * this.index.idf(m.term);
      const { docs, masks } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const s = MASK_SCORE[masks[i]!]! * weight;
        if (best[doc] === 0) local.push(doc);
        if (s > best[doc]!) best[doc] = s;
      }
    }
    return local;
  }

  #expansions(token: string): TermMatch[] {
    return this.index.expand(token, synonymsOf(token));
  }

  #allDocs(): number[] {
    const out: number[] = [];
    for (let d = 0; d < this.index.docCount; d++) if (this.index.isAlive(d)) out.push(d);
    return out;
  }

  #ensureCapacity(): void {
    const n = this.index.docCount;
    if (this.#best.length >= n) return;
    const size = Math.max(n, this.#best.length * 2, 1024);
    this.#best = new Float64Array(size);
    this.#total = new Float64Array(size);
    this.#matched = new Uint8Array(size);
  }

  /** No words, only filters: everything that passes, by name. */
  #unranked(ctx: SearchContext, limit: number): SearchHit[] {
    const top: { doc: number; score: number; tie: string }[] = [];
    for (const doc of this.#allDocs()) {
      const eid = this.index.entityIdOf(doc);
      if (ctx.accept(eid)) insertTop(top, { doc, score: 1, tie: ctx.tieName(eid) }, limit);
    }
    return top.map(({ doc }) => ({ entityId: this.index.entityIdOf(doc), score: 1, why: "matches the filters" }));
  }

  #explain(doc: number, eid: string, toks: string[], query: string, ctx: SearchContext): string {
    const typed = words(query);
    // One phrase per matched part, listing every query word it explains: area "Living Room" matches "living room".
    const parts = new Map<string, { words: string[]; how: string }>();
    const unmatched: string[] = [];
    for (const token of toks) {
      const shown = typed.find((w) => w.startsWith(token) || token.startsWith(w)) ?? token;
      let bestScore = 0;
      let best: { what: string; how: string } | undefined;
      for (const m of this.#expansions(token)) {
        const mask = this.index.maskOf(m.term, doc);
        if (!mask) continue;
        const s = MASK_SCORE[mask]! * m.quality;
        if (s > bestScore) {
          bestScore = s;
          const how = m.kind === "exact" ? "" : m.kind === "typo" ? ` (typo for "${m.term}")` : m.kind === "prefix" ? ` (start of "${m.term}")` : ` (synonym "${m.term}")`;
          best = { what: ctx.describe(eid, FIELDS[MASK_BEST[mask]!]!.key), how };
        }
      }
      if (STATE_WORDS.has(token) && ctx.stateOf(eid) === token && bestScore < STATE_MATCH_SCORE) best = { what: "state", how: "" };
      if (!best) {
        unmatched.push(shown);
        continue;
      }
      const part = parts.get(best.what) ?? { words: [], how: "" };
      part.words.push(shown);
      part.how += best.how;
      parts.set(best.what, part);
    }
    const out = [...parts].map(([what, p]) => (what === "state" ? `state is "${p.words.join(" ")}"` : `${what} matches "${p.words.join(" ")}"${p.how}`));
    if (unmatched.length) out.push(`nothing matches "${unmatched.join(" ")}"`);
    return out.join("; ");
  }
}

function insertTop(top: { doc: number; score: number; tie: string }[], item: { doc: number; score: number; tie: string }, limit: number): void {
  const before = (a: typeof item, b: typeof item) =>
    a.score !== b.score ? a.score > b.score : a.tie.length !== b.tie.length ? a.tie.length < b.tie.length : a.tie < b.tie;
  let i = top.length;
  while (i > 0 && before(item, top[i - 1]!)) i--;
  if (i >= limit) return;
  top.splice(i, 0, item);
  if (top.length > limit) top.pop();
}
