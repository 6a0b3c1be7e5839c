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
  /** Whether the entity's current state is what a state word says ("on", "open", "unavailable"…). */
  inState(entityId: string, word: string): boolean;
  /** Hard filters and hidden-entity rules; only documents that pass can be returned. */
  accept(entityId: string): boolean;
  /** A short description of a field's value for `why`, e.g. `area "Kitchen"`. */
  describe(entityId: string, field: FieldKey): string;
}

// A state word that matches the entity's current state counts like a strong field match.
const STATE_MATCH_SCORE = 3.0;
// Extra score when some words of the query are exactly an area, floor or label.
const WHOLE_VALUE_BONUS = 1.2;
const MAX_PHRASE = 3;
const STATE_ONLY_WORDS = new Set(["on", "off"]);

/**
 * Ranks documents for a free-text query. Each query word is scored on its
 * best field in each document (weighted by field, match quality and rarity),
 * the word scores are added, and documents that miss words are pushed down
 * by the square of the share of words they matched. Scratch buffers are
 * reused between queries so a search allocates almost nothing.
 */
export class SearchEngine {
  #best = new Float64Array(0);
  #total = new Float64Array(0);
  #matched = new Uint8Array(0);
  #touched = new Int32Array(0);
  #touchedCount = 0;
  #local = new Int32Array(0);

  constructor(private readonly index: SearchIndex) {}

  search(query: string, ctx: SearchContext, limit: number): SearchHit[] {
    const toks = [...new Set(queryTokens(query))];
    if (toks.length === 0) return this.#unranked(ctx, limit);
    this.#ensureCapacity();
    const best = this.#best;
    const total = this.#total;
    const matched = this.#matched;
    const local = this.#local;
    this.#touchedCount = 0;

    let stateTokens = 0;
    for (const token of toks) {
      if (STATE_WORDS.has(token)) {
        stateTokens++;
        continue; // scored below, once the candidates are known
      }
      const n = this.#scoreToken(token);
      for (let i = 0; i < n; i++) {
        const doc = local[i]!;
        this.#touch(doc);
        total[doc]! += best[doc]!;
        matched[doc]!++;
        best[doc] = 0;
      }
    }
    // A state word rescores the candidates the other words found (or everything, if there are no others).
    for (const token of toks) {
      if (!STATE_WORDS.has(token)) continue;
      // "on" and "off" in a name ("Wake on LAN") say nothing about what the user asks for.
      const n = STATE_ONLY_WORDS.has(token) ? 0 : this.#scoreToken(token);
      const everything = stateTokens === toks.length;
      const size = everything ? this.index.docCount : this.#touchedCount;
      for (let i = 0; i < size; i++) {
        const doc = everything ? i : this.#touched[i]!;
        if (everything && !this.index.isAlive(doc)) continue;
        const s = Math.max(best[doc]!, ctx.inState(this.index.entityIdOf(doc), token) ? STATE_MATCH_SCORE : 0);
        best[doc] = 0;
        if (s === 0) continue;
        this.#touch(doc);
        total[doc]! += s;
        matched[doc]!++;
      }
      for (let i = 0; i < n; i++) best[local[i]!] = 0;
    }
    this.#wholeValueBonus(toks);

    const wordCount = toks.length;
    const top: Ranked[] = [];
    for (let i = 0; i < this.#touchedCount; i++) {
      const doc = this.#touched[i]!;
      const cover = matched[doc]! / wordCount;
      const score = total[doc]! * cover * cover * this.index.priorOf(doc);
      total[doc] = 0;
      matched[doc] = 0;
      if (!this.index.isAlive(doc)) continue;
      // Most candidates lose to the current last place; decide that before allocating anything.
      if (top.length >= limit && !this.#beats(doc, score, top[top.length - 1]!)) continue;
      const item = { doc, score, tie: this.index.tieOf(doc) };
      if (!ctx.accept(this.index.entityIdOf(doc))) continue;
      this.#insertTop(top, item, limit);
    }
    const typed = words(query);
    return top.map(({ doc, score }) => {
      const eid = this.index.entityIdOf(doc);
      return { entityId: eid, score: Math.round(score * 1000) / 1000, why: this.#explain({ doc, eid, toks, typed, ctx }) };
    });
  }

  #touch(doc: number): void {
    if (this.#total[doc] === 0 && this.#matched[doc] === 0) this.#touched[this.#touchedCount++] = doc;
  }

  /** Higher score first; equal scores: shorter name, then entity id. */
  #before(a: Ranked, b: Ranked): boolean {
    return this.#beats(a.doc, a.score, b);
  }

  #beats(doc: number, score: number, b: Ranked): boolean {
    if (score !== b.score) return score > b.score;
    const tie = this.index.tieOf(doc);
    if (tie !== b.tie) return tie < b.tie;
    return this.index.entityIdOf(doc) < this.index.entityIdOf(b.doc);
  }

  #insertTop(top: Ranked[], item: Ranked, limit: number): void {
    let i = top.length;
    while (i > 0 && this.#before(item, top[i - 1]!)) i--;
    if (i >= limit) return;
    top.splice(i, 0, item);
    if (top.length > limit) top.pop();
  }

  /**
   * Rewards documents whose area, floor or label is named exactly by a run of
   * query words, reading misspelt words as the words they were taken for.
   */
  #wholeValueBonus(toks: string[]): void {
    const total = this.#total;
    const readings = toks.map((t) => [t, ...this.#expansions(t).filter((m) => m.kind === "typo").slice(0, 2).map((m) => m.term)]);
    for (let len = 1; len <= Math.min(MAX_PHRASE, toks.length); len++) {
      for (let i = 0; i + len <= toks.length; i++) {
        for (const phrase of combinations(readings.slice(i, i + len))) {
          const term = wholeValueTerm(phrase);
          const posting = this.index.posting(term);
          if (!posting) continue;
          const bonus = WHOLE_VALUE_BONUS * this.index.idf(term);
          for (const doc of posting.docs) if (total[doc]! > 0) total[doc]! += bonus;
        }
      }
    }
  }

  /** Puts each document's best score for one query word into `#best`, the documents into `#local`; returns their count. */
  #scoreToken(token: string): number {
    const best = this.#best;
    const local = this.#local;
    let n = 0;
    // A longer or respelled word may not count as rarer than the word the user actually typed.
    const ownIdf = this.index.posting(token) ? this.index.idf(token) : Infinity;
    for (const m of this.#expansions(token)) {
      const posting = this.index.posting(m.term);
      if (!posting) continue;
      const weight = m.quality * Math.min(this.index.idf(m.term), ownIdf);
      const { docs, masks } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const s = MASK_SCORE[masks[i]!]! * weight;
        if (best[doc] === 0) local[n++] = doc;
        if (s > best[doc]!) best[doc] = s;
      }
    }
    return n;
  }

  #expansions(token: string): TermMatch[] {
    return this.index.expand(token, synonymsOf(token));
  }

  #ensureCapacity(): void {
    const n = this.index.docCount;
    if (this.#best.length >= n) return;
    const size = Math.max(n, this.#best.length * 2, 1024);
    this.#best = new Float64Array(size);
    this.#total = new Float64Array(size);
    this.#matched = new Uint8Array(size);
    this.#touched = new Int32Array(size);
    this.#local = new Int32Array(size);
  }

  /** No words, only filters: everything that passes, by name. */
  #unranked(ctx: SearchContext, limit: number): SearchHit[] {
    const top: Ranked[] = [];
    for (let doc = 0; doc < this.index.docCount; doc++) {
      if (!this.index.isAlive(doc)) continue;
      if (top.length >= limit && !this.#beats(doc, 1, top[top.length - 1]!)) continue;
      const item = { doc, score: 1, tie: this.index.tieOf(doc) };
      if (ctx.accept(this.index.entityIdOf(doc))) this.#insertTop(top, item, limit);
    }
    return top.map(({ doc }) => ({ entityId: this.index.entityIdOf(doc), score: 1, why: "matches the filters" }));
  }

  #explain(args: { doc: number; eid: string; toks: string[]; typed: string[]; ctx: SearchContext }): string {
    const { doc, eid, toks, typed, ctx } = args;
    // One phrase per matched field, listing every query word it explains: area "Living Room" matches "living room".
    const parts = new Map<FieldKey | "state", { words: string[]; how: string }>();
    const unmatched: string[] = [];
    for (const token of toks) {
      const shown = typed.find((w) => w.startsWith(token) || token.startsWith(w)) ?? token;
      let bestScore = 0;
      let best: { field: FieldKey | "state"; how: string } | undefined;
      for (const m of this.#expansions(token)) {
        const mask = this.index.maskOf(m.term, doc);
        if (!mask) continue;
        const s = MASK_SCORE[mask]! * m.quality;
        if (s > bestScore) {
          bestScore = s;
          const how = m.kind === "exact" ? "" : m.kind === "typo" ? ` (typo for "${m.term}")` : m.kind === "prefix" ? ` (start of "${m.term}")` : ` (synonym "${m.term}")`;
          best = { field: FIELDS[MASK_BEST[mask]!]!.key, how };
        }
      }
      if (STATE_WORDS.has(token) && ctx.inState(eid, token) && bestScore < STATE_MATCH_SCORE) best = { field: "state", how: "" };
      if (!best) {
        unmatched.push(shown);
        continue;
      }
      const part = parts.get(best.field) ?? { words: [], how: "" };
      part.words.push(shown);
      part.how += best.how;
      parts.set(best.field, part);
    }
    const out = [...parts].map(([field, p]) =>
      field === "state" ? `state is "${p.words.join(" ")}"` : `${ctx.describe(eid, field)} matches "${p.words.join(" ")}"${p.how}`,
    );
    if (unmatched.length) out.push(`nothing matches "${unmatched.join(" ")}"`);
    return out.join("; ");
  }
}

interface Ranked {
  doc: number;
  score: number;
  /** Name length: shorter names win ties, as they are closer to what was typed. */
  tie: number;
}

/** Every way of picking one reading per position: [[a, b], [c]] → [a, c], [b, c]. */
function combinations(choices: string[][]): string[][] {
  let out: string[][] = [[]];
  for (const options of choices) out = out.flatMap((prefix) => options.map((o) => [...prefix, o]));
  return out;
}
