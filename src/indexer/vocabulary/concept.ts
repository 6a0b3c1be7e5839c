/**
 * The shape of the vocabulary tables: words people use, in several
 * languages, and what in a home they point at. The tables were written by
 * reading Home Assistant's own sentence collection (the `home-assistant/intents`
 * repository) for how people phrase requests, language by language.
 */

/**
 * Words per language, separated by spaces. The words of a phrase are joined
 * by "_" ("garage_door"). Chinese and Japanese words are found inside the
 * text, as those languages put no spaces between words.
 */
export interface Words {
  en?: string;
  de?: string;
  fr?: string;
  es?: string;
  it?: string;
  nl?: string;
  pt?: string;
  pl?: string;
  cs?: string;
  ru?: string;
  uk?: string;
  sv?: string;
  da?: string;
  nb?: string;
  fi?: string;
  hu?: string;
  el?: string;
  tr?: string;
  ro?: string;
  sk?: string;
  sl?: string;
  hr?: string;
  sr?: string;
  bg?: string;
  lt?: string;
  lv?: string;
  et?: string;
  ca?: string;
  he?: string;
  ar?: string;
  vi?: string;
  th?: string;
  id?: string;
  zh?: string;
  /** Traditional characters (Hong Kong, Taiwan). */
  zht?: string;
  ja?: string;
  ko?: string;
}

/**
 * What a word points at, as space-separated kinds: a domain ("light"), a
 * device class ("c:battery"), each with how surely the word means it
 * ("cover@0.8"; 1 when left out).
 */
export type KindList = string;

/** What devices are: "lamp" is a light, "blinds" are covers of class blind. */
export interface Thing {
  kinds: KindList;
  words: Words;
}

/** What a request asks a device to do. Each has its preferred states in `actions.ts`. */
export type ActionId =
  | "turn_on"
  | "turn_off"
  | "toggle"
  | "open"
  | "close"
  | "lock"
  | "unlock"
  | "pause"
  | "resume"
  | "play"
  | "stop"
  | "next"
  | "previous"
  | "volume"
  | "mute"
  | "set"
  | "heat"
  | "cool"
  | "dim"
  | "clean"
  | "dock"
  | "water"
  | "mow"
  | "arm"
  | "disarm"
  | "add"
  | "remove"
  | "start"
  | "run";

/** What devices do: "pause" acts on media players, "vacuum" on vacuums, "turn off" on anything switchable. */
export interface Action {
  action: ActionId;
  /** The kinds of device the verb itself implies; absent for verbs any device takes ("turn", "set"). */
  kinds?: KindList;
  words: Words;
}

/** Quantities a question asks for: "how warm", "battery level". */
export interface Quantity {
  kinds: KindList;
  words: Words;
}
