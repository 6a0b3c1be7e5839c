import type { Expansions } from "./expansions.js";
import type { MatchSets } from "./match-sets.js";
import { namesArea, phrasesOf, type Phrase } from "./phrases.js";
import { preferenceOf, type Preference } from "./preferences.js";
import type { Reading, ReadToken } from "./reading.js";
import type { SearchIndex, TermMatch } from "./search-index.js";
import type { SearchRequest } from "./search-types.js";
import { HERE_BOOST, NEAR_AREA_BOOST } from "./search-weights.js";
import { NO_KINDS } from "./vocabulary/index.js";
import type { WeightedTerm } from "./weigh.js";

/** What one search needs besides the scratch buffers, worked out once from the request. */
export interface Plan {
  reading: Reading;
  limit: number;
  tokens: ReadToken[];
  expansions: TermMatch[][];
  terms: (readonly WeightedTerm[])[];
  states: { terms: readonly WeightedTerm[]; states: string[] }[];
  phrases: Phrase[];
  /** The weight of all words, state words included: a document matching all of them has full cover. */
  weight: number;
  namedWhole: readonly number[];
  near: number;
  nearFloor: number;
  nearBoost: number;
  nearAreaName: string | undefined;
  flags: boolean;
  command: boolean;
  preference: Preference;
}

/**
 * Works out the plan of one search from its request and the words that
 * count, and builds the words' bit sets into `sets` on the way.
 */
export function planSearch(args: { index: SearchIndex; expansions: Expansions; sets: MatchSets; req: SearchRequest; tokens: ReadToken[] }): Plan {
  const { index, sets, req, tokens } = args;
  const { reading } = req;
  const expansions = tokens.map((t) => args.expansions.of(t));
  const terms = tokens.map((t) => args.expansions.weighed(t));
  sets.build(
    index,
    terms,
    tokens.map((t) => t.weight >= 1),
  );
  const states = reading.states.map((s) => {
    if (!s.term) return { terms: [], states: s.states };
    const token: ReadToken = { term: s.term, shown: s.word, weight: 1, kinds: NO_KINDS, known: true };
    return { terms: args.expansions.weighed(token), states: s.states };
  });
  const phrases = phrasesOf({ index, tokens, expansions, runs: reading.unspaced });
  const namedArea = namesArea(phrases);
  const namedWhole = sets.namedWhole;
  // Nothing names a device when every word that counts points at a kind ("pause", "the lights"): then states decide more.
  const generic = tokens.length > 0 && tokens.every((t) => t.kinds.length > 0 || t.weight < 1) && namedWhole.length === 0;
  return {
    reading,
    limit: req.limit,
    tokens,
    expansions,
    terms,
    states,
    phrases,
    weight: tokens.reduce((sum, t) => sum + t.weight, 0) + reading.states.length,
    namedWhole,
    near: namedArea ? -1 : req.nearArea,
    nearFloor: namedArea ? -1 : req.nearFloor,
    nearBoost: reading.here ? HERE_BOOST : NEAR_AREA_BOOST,
    nearAreaName: req.nearAreaName,
    flags: reading.states.length > 0 && reading.mood !== "command",
    command: reading.mood === "command",
    preference: preferenceOf(reading, generic),
  };
}
