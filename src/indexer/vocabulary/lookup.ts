import { fold, isUnspaced, segments, stem } from "../tokenize.js";
import { ACTIONS } from "./actions.js";
import type { ActionId, KindList, Words } from "./concept.js";
import { FUNCTION_WORDS, HERE_WORDS, LEADING_VERBS, QUESTION_WORDS, SOFT_WORDS, STATE_KINDS, STATES, THIS_ROOM, VALUE_LEADS, VALUE_UNITS } from "./grammar.js";
import { MORE_ACTIONS, MORE_QUANTITIES, MORE_QUESTION_WORDS, MORE_THINGS } from "./more-languages.js";
import { QUANTITIES } from "./quantities.js";
import { THINGS } from "./things.js";

const ALL_THINGS = [...THINGS, ...MORE_THINGS];
const ALL_QUANTITIES = [...QUANTITIES, ...MORE_QUANTITIES];
const ALL_ACTIONS = [...ACTIONS, ...MORE_ACTIONS];

/** A kind a word points at: a term of the index's kind field, and how surely. */
export interface KindRef {
  term: string;
  quality: number;
}

/** Everything the tables say about one word (or phrase); words that say the same share one. */
export interface Sense {
  thing?: KindRef[];
  action?: { id: ActionId; kinds: KindRef[] };
  quantity?: KindRef[];
  /** What the word points at as a noun: its thing and quantity kinds together, the surer of each kept (or its verb's, when it is only a verb). */
  kinds: readonly KindRef[];
  question?: true;
  function?: true;
  /** Says little, but may be a word of a name ("status", "reading"). */
  soft?: true;
  /** Places the request where it was spoken ("here", "this room"). */
  here?: true;
  leading?: true;
  unit?: true;
  valueLead?: true;
}

/** The one empty kind list, so that words without kinds share it. */
export const NO_KINDS: readonly KindRef[] = Object.freeze([]);

/** The index term of a domain or a device class in the kind field. */
export const domainTerm = (domain: string): string => `~d:${domain}`;
export const classTerm = (deviceClass: string): string => `~c:${deviceClass}`;

function kindRefs(list: KindList): KindRef[] {
  return list
    .split(/\s+/)
    .filter(Boolean)
    .map((k) => {
      const [name, q] = k.split("@");
      const quality = q ? Number(q) : 1;
      return { term: name!.startsWith("c:") ? classTerm(name!.slice(2)) : domainTerm(name!), quality };
    });
}

/** A table word as the index tokenizes it: folded and stemmed, phrase words joined by a space. */
function keyOf(word: string): string {
  if (isUnspaced(word)) return fold(word);
  return word
    .split("_")
    .flatMap((w) => segments(w))
    .map(stem)
    .join(" ");
}

function allWords(words: Words): string[] {
  const out: string[] = [];
  for (const list of Object.values(words)) if (typeof list === "string") out.push(...list.split(/\s+/).filter(Boolean));
  return out;
}

/** Adds the better of two kind lists' entries for each term. */
function mergeKinds(a: readonly KindRef[] | undefined, b: readonly KindRef[]): KindRef[] {
  const out = new Map((a ?? []).map((k) => [k.term, k]));
  for (const k of b) if ((out.get(k.term)?.quality ?? 0) < k.quality) out.set(k.term, k);
  return [...out.values()];
}

/**
 * The vocabulary as lookups: spaced words and phrases by their stemmed key,
 * unspaced (Chinese, Japanese) words for finding inside text.
 */
export class Vocabulary {
  readonly #senses = new Map<string, Sense>();
  readonly #unspaced: { key: string; sense: Sense }[] = [];
  #sorted: string[] = [];
  readonly #near = new Map<string, Sense | null>();
  readonly #tails = new Set<string>();
  /** State words by the word as typed: stemming would merge "locked" with the verb "lock". */
  readonly #states = new Map<string, { states: string[]; kinds: readonly KindRef[] }>();

  constructor() {
    const add = (word: string, update: (s: Sense) => void) => {
      const key = keyOf(word);
      if (!key) return;
      let sense = this.#senses.get(key);
      if (!sense) {
        sense = { kinds: NO_KINDS };
        this.#senses.set(key, sense);
        if (isUnspaced(key)) this.#unspaced.push({ key, sense });
      }
      update(sense);
    };
    for (const t of ALL_THINGS) {
      const kinds = kindRefs(t.kinds);
      for (const w of allWords(t.words)) add(w, (s) => (s.thing = s.thing ? mergeKinds(s.thing, kinds) : kinds));
    }
    for (const q of ALL_QUANTITIES) {
      const kinds = kindRefs(q.kinds);
      for (const w of allWords(q.words)) add(w, (s) => (s.quantity = s.quantity ? mergeKinds(s.quantity, kinds) : kinds));
    }
    // Nouns that end compound names: "Deckenlampe", "Küchenlicht", "keukenlamp", "taklampa".
    for (const w of [...ALL_THINGS, ...ALL_QUANTITIES].flatMap((c) => allWords(c.words))) {
      const f = fold(w);
      if (f.length >= 4 && /^\p{L}+$/u.test(f) && !isUnspaced(f)) this.#tails.add(f);
    }
    for (const a of ALL_ACTIONS) {
      const kinds = kindRefs(a.kinds ?? "");
      // A word listed for two actions keeps the first; the tables list the likelier one first.
      for (const w of allWords(a.words)) add(w, (s) => (s.action ??= { id: a.action, kinds }));
    }
    for (const [word, states] of STATES) this.#states.set(fold(word), { states, kinds: kindRefs(STATE_KINDS.get(word) ?? "") });
    for (const w of SOFT_WORDS) add(w, (s) => (s.soft = true));
    for (const w of HERE_WORDS) add(w, (s) => (s.here = true));
    for (const w of THIS_ROOM) add(w.replace(/ /g, "_"), (s) => (s.here = true));
    for (const w of [...allWords(QUESTION_WORDS), ...allWords(MORE_QUESTION_WORDS)]) add(w, (s) => (s.question = true));
    for (const w of allWords(FUNCTION_WORDS)) add(w, (s) => (s.function = true));
    for (const w of LEADING_VERBS) add(w, (s) => (s.leading = true));
    for (const w of VALUE_UNITS) add(w, (s) => (s.unit = true));
    for (const w of VALUE_LEADS) add(w, (s) => (s.valueLead = true));
    // Merged once, so every reading of a word hands out the same list (search caches by it).
    for (const s of this.#senses.values()) {
      // Most words are only a thing or only a quantity: their list is shared with every word of their concept.
      const merged = s.thing && s.quantity ? mergeKinds(s.thing, s.quantity) : (s.thing ?? s.quantity);
      s.kinds = merged?.length ? merged : (s.action?.kinds ?? NO_KINDS);
    }
    this.#intern();
    this.#sorted = [...this.#senses.keys()].filter((k) => !k.includes(" ") && !isUnspaced(k)).sort();
    // Longer unspaced words first, so "扫地机器人" is found before "扫地".
    this.#unspaced.sort((a, b) => b.key.length - a.key.length);
  }

  /**
   * A compound word cut before a noun it ends with ("kuchenlicht" → "kuchen" +
   * "licht"), or undefined when it ends with none. The head keeps at least
   * three letters; the longest noun wins.
   */
  splitCompound(word: string): { head: string; tail: string } | undefined {
    if (word.length < 7) return undefined;
    for (let at = 3; at <= word.length - 4; at++) {
      const tail = word.slice(at);
      if (this.#tails.has(tail)) return { head: word.slice(0, at), tail };
    }
    return undefined;
  }

  /** Words that say the same (every word of one concept, most of the tables) share one sense object. */
  #intern(): void {
    const ids = new Map<object, number>();
    const id = (o: object | undefined) => {
      if (!o) return -1;
      let n = ids.get(o);
      if (n === undefined) ids.set(o, (n = ids.size));
      return n;
    };
    const shared = new Map<string, Sense>();
    for (const [key, s] of this.#senses) {
      const flags = [s.question, s.function, s.soft, s.here, s.leading, s.unit, s.valueLead].map((f) => (f ? 1 : 0)).join("");
      const signature = `${id(s.thing)}|${id(s.quantity)}|${s.action?.id ?? ""}|${id(s.action?.kinds)}|${id(s.kinds)}|${flags}`;
      const one = shared.get(signature);
      if (one) this.#senses.set(key, one);
      else shared.set(signature, s);
    }
    for (const u of this.#unspaced) u.sense = this.#senses.get(u.key)!;
  }

  /** The states a state word stands for, and the kinds of device it speaks of, by the word as typed and folded ("locked", not "lock"). */
  stateOf(word: string): { states: string[]; kinds: readonly KindRef[] } | undefined {
    return this.#states.get(word);
  }

  /** What the tables say about a stemmed word or a two-word phrase ("garag door"), if anything. */
  sense(key: string): Sense | undefined {
    return this.#senses.get(key);
  }

  /**
   * The sense of an inflected form the tables do not list: "lampą" read as
   * "lampa", "кухне" as "кухня". The form must share a long beginning with
   * the listed word and differ only in a short ending.
   */
  nearSense(word: string): Sense | undefined {
    const cached = this.#near.get(word);
    if (cached !== undefined) return cached ?? undefined;
    let found: Sense | undefined;
    // A shared beginning of five letters: "closet" is not "close", "цветы" (flowers) not "цвет" (colour).
    const shortest = 5;
    for (let len = word.length - 1; len >= shortest && !found; len--) {
      const prefix = word.slice(0, len);
      if (word.length - len > 3) break;
      let lo = 0;
      let hi = this.#sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.#sorted[mid]! < prefix) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.#sorted.length && this.#sorted[i]!.startsWith(prefix); i++) {
        const key = this.#sorted[i]!;
        if (key.length - len <= 3 && key.length >= shortest) {
          found = this.#senses.get(key);
          break;
        }
      }
    }
    if (this.#near.size > 5000) this.#near.clear();
    this.#near.set(word, found ?? null);
    return found;
  }

  /** Table words found inside an unspaced run, longest first, none overlapping. */
  findUnspaced(run: string): { key: string; at: number; sense: Sense }[] {
    const taken = new Array<boolean>(run.length).fill(false);
    const out: { key: string; at: number; sense: Sense }[] = [];
    for (const { key, sense } of this.#unspaced) {
      let from = 0;
      for (;;) {
        const at = run.indexOf(key, from);
        if (at < 0) break;
        from = at + 1;
        let free = true;
        for (let i = at; i < at + key.length; i++) if (taken[i]) free = false;
        if (!free) continue;
        for (let i = at; i < at + key.length; i++) taken[i] = true;
        out.push({ key, at, sense });
      }
    }
    return out.sort((a, b) => a.at - b.at);
  }
}
