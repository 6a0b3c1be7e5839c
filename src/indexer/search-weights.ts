/**
 * The factors a search's reading of the request applies to a document's
 * score. The scorer multiplies them in, and the bounds of the pruning take
 * the largest of them, so both read them from here.
 */

// A state word that matches the entity's current state counts like a strong field match.
export const STATE_MATCH_SCORE = 3.0;
// Extra score when some words of the query are exactly an entity's whole name.
export const WHOLE_NAME_BONUS = 0.8;
/** The area the request was spoken in, when the request names no area: a preference, not a filter. */
export const NEAR_AREA_BOOST = 1.6;
/** … and when the request says "here" or "this room". */
export const HERE_BOOST = 2.2;
/** …and the rest of its floor, a little: the thermostat downstairs for "warmer" said in the living room. */
export const SAME_FLOOR_BOOST = 1.15;
/** A question with state words ("which batteries are low") asks about flags: binary sensors first. */
export const FLAGS = 1.1;
/** A command to something that only reports (a sensor) is unlikely… */
export const CANNOT_ACT = 0.7;
/** …and one that sets a value ("to 21 degrees") is for something that can be set, whatever its name says. */
export const CANNOT_BE_SET = 0.35;
/** A question about a level: numeric sensors measure it, binary ones only flag it. */
export const MEASURES = 1.15;
export const ONLY_FLAGS = 0.85;
/** Where nothing in the request matched, the entities of the area it was spoken in still come back, below any real match. */
export const PLACE_ONLY_SCORE = 0.05;
