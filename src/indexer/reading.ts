import type { ReadToken } from "./read-token.js";
import { isUnspaced, segments, stem } from "./tokenize.js";
import { gramTokens, names } from "./unspaced-tokens.js";
import { NO_KINDS, type ActionId, type KindRef, type Sense, type Vocabulary } from "./vocabulary/index.js";

export type { ReadToken } from "./read-token.js";


export type Mood = "command" | "question" | "plain";

/** How a request was read: what it asks, of what kind of device, in which words. */
export interface Reading {
  tokens: ReadToken[];
  mood: Mood;
  action: ActionId | undefined;
  /** State words that select entities ("which lights are *on*"); never set for a command. `term` also matches names ("Forecast *Home*"), empty for on/off. */
  states: { word: string; term: string; states: string[] }[];
  /** States a command asks for ("turn *off*…"): not evidence for which entity is meant. */
  wanted: string[];
  /** A question about a level ("how warm", "battery level"): sensors that measure it first. */
  quantity: boolean;
  /** The command sets a value ("to 21 degrees", "50 %"): only something that can be set is meant. */
  setsValue: boolean;
  /** The request says it is about where it is spoken ("in here", "this room"). */
  here: boolean;
  /** The words that implied a kind of device, as typed: ["pause"]. */
  implied: string[];
  /** Runs of text written without spaces (Chinese, Japanese), in which names are looked for whole. */
  unspaced: string[];
}

/** Questions in Chinese and Japanese are marked by particles and question words inside the text. */
const UNSPACED_QUESTION = /[吗嗎呢？?]|什么|多少|几度|几点|是否|有没有|怎么样|怎样|如何|哪|ですか|何|どう|いくつ/;
const UNSPACED_HERE = /这里|这儿|这边|ここ|この部屋/;
/** Words after which the rest of a command is its payload: "add milk *to* the list", "play jazz *on* the speaker". */
const PAYLOAD_ENDS = new Set(["to", "on", "onto", "in", "into", "from", "off", "zu", "zur", "zum", "auf", "à", "sur", "dans", "a", "en", "al", "alla", "nella", "sulla", "op", "naar", "do", "na", "w", "z", "в", "на", "из", "till", "på", "til"]);
const PAYLOAD_ACTIONS = new Set<ActionId>(["add", "remove", "play"]);
const SETTINGS = new Set(["volume", "brightness", "temperature", "temp", "position", "level"]);
/** What a percentage sets, when nothing else says: a light's brightness, a cover's position, a volume, a fan's speed. */
const PERCENT_KINDS: readonly KindRef[] = [
  { term: "~d:light", quality: 0.6 },
  { term: "~d:cover", quality: 0.5 },
  { term: "~d:media_player", quality: 0.4 },
  { term: "~d:fan", quality: 0.4 },
];
/** The state an action brings about: "turn off" wants "off", so what is already off is the less likely target. */
const ACTION_WANTS = new Map<ActionId, string[]>([
  ["turn_on", ["on"]],
  ["turn_off", ["off"]],
  ["open", ["open"]],
  ["close", ["closed"]],
  ["lock", ["locked"]],
  ["unlock", ["unlocked"]],
]);
/** Actions any device takes, or that later words say more precisely ("поставь на паузу": set → pause). */
const GENERIC_ACTIONS = new Set<ActionId>(["set", "start", "run", "play"]);
const SOFT_WEIGHT = 0.3;
const PAYLOAD_WEIGHT = 0.3;
const STATE_KIND_WEIGHT = 0.5;

interface Word {
  raw: string;
  term: string;
  sense: Sense | undefined;
  state: { states: string[]; kinds: readonly KindRef[] } | undefined;
  bare?: string;
  /** A phrase read from this word and the next ("turn off", "garage door"). */
  phrase?: Sense;
  inPhrase?: boolean;
}

/** Prefixes Hebrew and Arabic write onto the next word ("in the", "and the", "to the"), longest first. */
const HEBREW_PREFIX = /^(?:וכש|וה|וב|ול|ומ|שה|שב|כש|ה|ב|ל|מ|ו|ש|כ)(?=\p{Script=Hebrew}{2})/u;
const ARABIC_PREFIX = /^(?:وال|بال|فال|كال|لل|ال|و|ب|ل|ف)(?=\p{Script=Arabic}{2})/u;

/** A word without the article or preposition Hebrew and Arabic attach to it, when it has one. */
function bareForm(word: string): string | undefined {
  const m = HEBREW_PREFIX.exec(word) ?? ARABIC_PREFIX.exec(word);
  return m ? word.slice(m[0].length) : undefined;
}


/**
 * Reads a request: which words name things (and what kinds of device they
 * imply), whether it is a command, a question or a plain search, what action
 * it asks for, which words are states, values or the payload of a command,
 * and whether it speaks of "here". Works on any language the vocabulary
 * knows; in others the words are taken as names, which is what they most
 * likely are.
 */
export function readRequest(query: string, vocab: Vocabulary): Reading {
  const segs = segments(query);
  const spaced: Word[] = [];
  const unspacedTokens: ReadToken[] = [];
  const unspacedSenses: { key: string; sense: Sense }[] = [];
  const runs: string[] = [];
  for (const s of segs) {
    if (isUnspaced(s)) {
      runs.push(s);
      const found = vocab.findUnspaced(s);
      unspacedSenses.push(...found);
      unspacedTokens.push(...gramTokens(s, found));
      continue;
    }
    const term = stem(s);
    const bare = bareForm(s);
    spaced.push({ raw: s, term, sense: vocab.sense(term) ?? (bare ? vocab.sense(bare) : undefined) ?? (/\d/.test(s) ? undefined : vocab.nearSense(term)), state: vocab.stateOf(s), ...(bare ? { bare } : {}) });
  }

  const first = spaced.findIndex((w) => !w.sense?.function && !w.sense?.soft);
  // Two-word phrases: "garage door" anywhere, "turn off" only where a verb stands.
  for (let i = 0; i + 1 < spaced.length; i++) {
    const p = vocab.sense(`${spaced[i]!.term} ${spaced[i + 1]!.term}`);
    if (!p || (p.action && !names(p) && i !== first && !p.here)) continue;
    spaced[i]!.phrase = p;
    spaced[i + 1]!.inPhrase = true;
    i++;
  }

  const firstSense = first >= 0 ? (spaced[first]!.phrase ?? spaced[first]!.sense) : undefined;
  // "open doors" lists doors that are open; "open the door" asks for one to be opened.
  const next = spaced[first + 1];
  const listsByState = first >= 0 && spaced[first]!.state !== undefined && next !== undefined && next.raw !== next.term && next.raw.endsWith("s");
  const percent = /\d\s*(%|％)/.test(query);
  const degrees = /\d\s*(°|度|℃|℉)/.test(query);
  const valueSet = percent || degrees || spaced.some((w, i) => /^\d/.test(w.raw) && (spaced[i + 1]?.sense?.unit || spaced[i - 1]?.sense?.valueLead));
  let mood: Mood = "plain";
  if (/[?？]\s*$/.test(query) || firstSense?.question || unspacedSenses.some((u) => u.sense.question) || (runs.length && UNSPACED_QUESTION.test(query))) mood = "question";
  else if ((firstSense?.action && !listsByState) || (next && (next.phrase ?? next.sense)?.action && !firstSense?.thing)) mood = "command";
  else if (unspacedSenses.some((u) => u.sense.action) || valueSet) mood = "command";
  // "lamp on here", "kitchen lights off", "Licht aus": an on/off word with no question around it asks for that state.
  else if (spaced.length > 1 && spaced.some((w) => w.state?.states.length === 1 && (w.state.states[0] === "on" || w.state.states[0] === "off"))) mood = "command";

  let action: ActionId | undefined;
  const states: Reading["states"] = [];
  const wanted: string[] = [];
  const implied: string[] = [];
  let quantity = false;
  let here = runs.length > 0 && UNSPACED_HERE.test(query);
  const tokens: ReadToken[] = [];
  const extra: ReadToken[] = [];
  const stateKinds: ReadToken[] = [];
  let payloadFrom = -1;

  spaced.forEach((w, i) => {
    const sense = w.phrase ?? w.sense;
    const token: ReadToken = { term: w.term, shown: w.raw, weight: 1, kinds: NO_KINDS, known: sense !== undefined || w.state !== undefined, ...(w.bare ? { bare: w.bare } : {}) };
    tokens.push(token);
    if (w.inPhrase) {
      // The second word of a phrase: still a name word ("Garage *Door*") when the phrase names a thing.
      token.known = true;
      const phrase = spaced[i - 1]!.phrase;
      token.weight = phrase?.thing || phrase?.quantity ? 1 : 0;
      return;
    }
    if (sense?.here) here = true;
    const isFirst = i === first;
    // A word that is both a state and a verb ("open") is the verb when it opens a command.
    if (w.state && !(isFirst && sense?.action && mood === "command" && !listsByState)) {
      token.weight = 0;
      if (mood === "command") wanted.push(...w.state.states);
      else {
        // "on" and "off" in a name ("Wake on LAN") say nothing about what the user asks for; other state words may be names too.
        states.push({ word: w.raw, term: ["on", "off"].includes(w.raw) ? "" : w.term, states: w.state.states });
        if (w.state.kinds.length) stateKinds.push({ term: "", shown: w.raw, weight: STATE_KIND_WEIGHT, kinds: w.state.kinds, known: true });
      }
      if (!sense?.thing) return;
      token.weight = 1;
    }
    // A number that is a value to set ("to 21", "21 degrees", "volume 50") names nothing.
    if (/^\d+([.,]\d+)?$/.test(w.raw)) {
      const prev = spaced[i - 1];
      if (spaced[i + 1]?.sense?.unit || prev?.sense?.valueLead || (prev && SETTINGS.has(prev.term)) || percent || degrees) token.weight = 0;
      return;
    }
    if (!sense) {
      // An unknown compound ("Küchenlicht") is also read as its parts: the noun it ends with, and the rest.
      const parts = /^\p{L}+$/u.test(w.raw) ? vocab.splitCompound(w.raw) : undefined;
      const tail = parts ? vocab.sense(stem(parts.tail)) : undefined;
      if (parts && tail) {
        token.kinds = tail.kinds;
        extra.push({ term: stem(parts.head), shown: parts.head, weight: 1, kinds: NO_KINDS, known: false });
      }
      return;
    }
    if (sense.soft) {
      token.weight = SOFT_WEIGHT;
      return;
    }
    if ((sense.function || sense.valueLead || sense.here || (sense.leading && isFirst) || sense.question) && !sense.thing && !sense.quantity) {
      token.weight = 0;
      return;
    }
    const asAction = sense.action && (mood === "command" || isFirst) && !(mood === "question" && sense.quantity) && (isFirst || !sense.thing);
    if (asAction && sense.action) {
      if (!action || (GENERIC_ACTIONS.has(action) && !GENERIC_ACTIONS.has(sense.action.id))) action = sense.action.id;
      if (PAYLOAD_ACTIONS.has(sense.action.id) && payloadFrom < 0) payloadFrom = i + 1;
      if (sense.action.kinds.length) {
        token.kinds = sense.action.kinds;
        token.verb = true;
        implied.push(w.raw);
      } else token.weight = 0;
      return;
    }
    const kinds = sense.kinds;
    if (mood === "question" && sense.quantity) quantity = true;
    if (kinds.length) {
      token.kinds = kinds;
      implied.push(w.raw);
    } else if (sense.unit) token.weight = 0;
  });

  // The payload of "add milk to the list" or "play jazz on the speaker" is not the entity.
  if (payloadFrom >= 0) {
    const to = spaced.findIndex((w, i) => i >= payloadFrom && PAYLOAD_ENDS.has(w.term));
    const end = to < 0 ? (action === "play" ? spaced.length : payloadFrom) : to;
    for (let i = payloadFrom; i < end; i++) {
      const t = tokens[i]!;
      if (t.kinds.length === 0 && t.weight > 0) t.weight = PAYLOAD_WEIGHT;
    }
  }

  for (const u of unspacedSenses) {
    const s = u.sense;
    if (s.here) here = true;
    // The word itself is looked up when the index could hold it (a character or a pair), with its kinds.
    const term = [...u.key].length <= 2 ? u.key : "";
    if (s.action && !s.thing) {
      if (!action || (GENERIC_ACTIONS.has(action) && !GENERIC_ACTIONS.has(s.action.id))) action = s.action.id;
      if (s.action.kinds.length) {
        extra.push({ term, shown: u.key, weight: 1, kinds: s.action.kinds, known: true, verb: true });
        implied.push(u.key);
      }
      continue;
    }
    const kinds = s.kinds;
    if (mood === "question" && s.quantity) quantity = true;
    if (kinds.length) {
      extra.push({ term, shown: u.key, weight: 1, kinds, known: true });
      implied.push(u.key);
    }
  }
  // A percentage says what is set, when no word does.
  if (percent && mood === "command" && ![...tokens, ...extra].some((t) => t.kinds.length)) extra.push({ term: "", shown: "%", weight: 1, kinds: PERCENT_KINDS, known: true });
  // A question whose state words ("charged", "detected") ask for a flag is not a question about a level.
  if (states.length) quantity = false;
  // What kind of device a state word speaks of ("running" machines) counts only when no word names a kind.
  if (![...tokens, ...extra].some((t) => t.kinds.length)) extra.push(...stateKinds);

  const all = [...tokens, ...unspacedTokens, ...extra];
  // A request of nothing but small words ("the", "on") is searched as typed.
  if (all.every((t) => t.weight === 0) && states.length === 0) for (const t of all) if (t.term) t.weight = 1;
  if (action) wanted.push(...(ACTION_WANTS.get(action) ?? []));
  return { tokens: all, mood, action, states, wanted, quantity, setsValue: valueSet && mood === "command", here, implied, unspaced: runs };
}
