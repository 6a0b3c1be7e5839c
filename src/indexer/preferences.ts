import type { Reading } from "./reading.js";
import type { ActionId } from "./vocabulary/index.js";

/**
 * For each action, the states of the entities it applies to, likeliest
 * first: "pause" is for what is playing, "next" for what is playing and
 * then for what is paused, "open" for what is closed. Among entities that match a
 * request equally, those in such a state come first; those already in the
 * state a command asks for come a little later (turning off what is off does
 * nothing). The factors are small: they order close calls, never a name.
 */
const SUITS = new Map<ActionId, { states: string[]; because: string; strong?: true }>([
  ["pause", { states: ["playing", "buffering"], because: "it can be paused", strong: true }],
  ["stop", { states: ["playing", "buffering", "paused", "cleaning", "mowing"], because: "it can be stopped", strong: true }],
  ["resume", { states: ["paused"], because: "it can be resumed", strong: true }],
  ["play", { states: ["paused", "idle", "on"], because: "it can play" }],
  ["next", { states: ["playing", "paused"], because: "it can skip ahead", strong: true }],
  ["previous", { states: ["playing", "paused"], because: "it can go back", strong: true }],
  ["volume", { states: ["playing", "paused", "on", "idle"], because: "its volume can be changed" }],
  ["mute", { states: ["playing", "on", "idle"], because: "it can be muted", strong: true }],
  ["turn_on", { states: ["off"], because: "it can be turned on" }],
  ["turn_off", { states: ["on", "playing", "heat", "cool", "heat_cool", "auto", "dry", "fan_only", "cleaning"], because: "it can be turned off" }],
  ["open", { states: ["closed", "closing"], because: "it can be opened" }],
  ["close", { states: ["open", "opening"], because: "it can be closed" }],
  ["lock", { states: ["unlocked", "open", "unlocking"], because: "it can be locked" }],
  ["unlock", { states: ["locked"], because: "it can be unlocked" }],
  ["clean", { states: ["docked", "idle", "paused", "returning"], because: "it can start cleaning" }],
  ["dock", { states: ["cleaning", "paused", "idle", "returning", "mowing"], because: "it can go back to its dock" }],
  ["mow", { states: ["docked", "paused"], because: "it can start mowing" }],
  ["water", { states: ["closed"], because: "it can be opened" }],
  ["arm", { states: ["disarmed"], because: "it can be armed" }],
  ["disarm", { states: ["armed_away", "armed_home", "armed_night", "armed_vacation", "triggered"], because: "it can be disarmed" }],
]);

const SUITED = 1.05;
const ALREADY = 0.98;
/** When nothing names a device, the state is most of what tells the candidates apart; still less than a more fitting kind ("blinds" over curtains). */
const SUITED_GENERIC = 1.1;
const ALREADY_GENERIC = 0.95;
/** Only what plays can be paused or skipped: for media actions the state weighs more, over a speaker's kind for "music". */
const SUITED_STRONG = 1.15;
const SUITED_STRONG_GENERIC = 1.25;
const DOWN = 0.9;
const DOWN_STATES = new Set(["unavailable", "unknown"]);

export interface Preference {
  active: boolean;
  /** The largest factor any state gets, to skip candidates that cannot reach the top. */
  most: number;
  /** `named`: the request says the entity's whole name, so its state only edges it. */
  factor(state: string | undefined, named?: boolean): number;
  /** Why the entity's state suits the request, or undefined. */
  explain(state: string | undefined): string | undefined;
}

const NONE: Preference = { active: false, most: 1, factor: () => 1, explain: () => undefined };

/** The state preference a request implies; inactive for questions and plain searches. Stronger when nothing names a device (`generic`). */
export function preferenceOf(reading: Reading, generic: boolean): Preference {
  if (reading.mood !== "command" && !reading.action) return NONE;
  const suits = reading.action ? SUITS.get(reading.action) : undefined;
  const wanted = reading.wanted;
  if (!suits && wanted.length === 0) return NONE;
  const suited = suits?.strong ? (generic ? SUITED_STRONG_GENERIC : SUITED_STRONG) : generic ? SUITED_GENERIC : SUITED;
  const already = generic ? ALREADY_GENERIC : ALREADY;
  return {
    active: true,
    most: suited,
    factor(state, named = false) {
      if (state === undefined || DOWN_STATES.has(state)) return DOWN;
      const best = named ? SUITED : suited;
      const at = suits ? suits.states.indexOf(state) : -1;
      // The first state suits best; later ones half as much.
      if (at === 0) return best;
      if (at > 0) return 1 + (best - 1) / 2;
      if (wanted.includes(state)) return named ? ALREADY : already;
      return 1;
    },
    explain(state) {
      return state !== undefined && suits?.states.includes(state) ? `state "${state}", so ${suits.because}` : undefined;
    },
  };
}
