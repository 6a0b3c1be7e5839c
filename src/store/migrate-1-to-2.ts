import type { MigrationStep } from "./migration-step.js";

/**
 * Format 1 → 2. Format 1 grew in place after it was fixed: approvals of
 * automation saves (`call.kind`), `request.ownerIsAdmin`, `persona`,
 * `policy.approval`, per-model stats and `usage.modelCalls` were added while
 * records still said 1, so a build that knew an earlier format 1 read the
 * newer records, quarantined what it could not parse and rewrote the rest
 * without the fields it did not know. Every field added meanwhile has a
 * default (older records read as before), so no value changes here: the step
 * only relabels each record, which is what makes a build that reads format 1
 * refuse this directory instead of damaging it.
 */
export const migrate1To2: MigrationStep = {
  from: 1,
  to: 2,
  record: (_kind, value) => ({ ...value, formatVersion: 2 }),
};
