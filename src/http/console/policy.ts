import { describeActuation, type ActuationCeiling } from "../../tools/index.js";
import type { ActuationPolicyView } from "./wire.js";

/** The add-on's actuation options, as the agent reads them. */
export type ActuationOptions = ActuationCeiling;

/**
 * The actuation policy in plain words, the same sentences a session's
 * policy reads out in get_session: what the agent may do, what asks a
 * person first, and what is refused.
 */
export function describePolicy(options: ActuationOptions): ActuationPolicyView {
  const summary = describeActuation(options);
  return { mayAct: options.allow, may: summary.may, asks: summary.asksFirst, never: summary.refused };
}
