import { MASK_SCORE_MAX } from "./fields.js";
import { mostForPhrases } from "./phrases.js";
import type { Plan } from "./search-plan.js";
import { FLAGS, MEASURES, SAME_FLOOR_BOOST, STATE_MATCH_SCORE } from "./search-weights.js";

/**
 * Writes into `bounds` the most a document matching each combination of
 * words (bit t: token t) can score, whatever its fields, state and place:
 * what the pruning compares with the last place of the page.
 */
export function boundCombinations(args: { plan: Plan; most: ArrayLike<number>; maxPrior: number; bounds: Float64Array; combinations: number }): void {
  const { plan, most, bounds, combinations } = args;
  const { tokens, reading, preference } = plan;
  // The documents named in full are in the first batch: no bound needs their bonus.
  let extra = mostForPhrases(plan.phrases);
  for (const s of plan.states) extra += Math.max(STATE_MATCH_SCORE, MASK_SCORE_MAX * s.terms.reduce((m, t) => Math.max(m, t.weight), 0));
  let factor = args.maxPrior * preference.most;
  factor *= plan.near >= 0 ? Math.max(plan.nearBoost, SAME_FLOOR_BOOST) : plan.nearFloor >= 0 ? SAME_FLOOR_BOOST : 1;
  if (plan.flags) factor *= FLAGS;
  if (reading.quantity) factor *= MEASURES;
  for (let p = 1; p < combinations; p++) {
    let total = extra;
    let matched = reading.states.length;
    for (let t = 0; t < tokens.length; t++) {
      if (!(p & (1 << t))) continue;
      total += most[t]! * tokens[t]!.weight;
      matched += tokens[t]!.weight;
    }
    const cover = matched / plan.weight;
    bounds[p] = total * cover * cover * factor;
  }
}
