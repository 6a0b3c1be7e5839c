import { describeError, type Clock, type Logger, type Principal } from "../shared/index.js";
import { approvalExpired, type ContinuationRecord, type Store } from "../store/index.js";
import type { RunningTurns } from "./running-turns.js";
import type { TurnExpiry } from "./turn-expiry.js";

export interface TakeUpWaitingDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  running: RunningTurns;
  expiry: TurnExpiry;
  /** Starts the turn on its model; throws when it cannot (no model yet). */
  takeUp(principal: Principal, record: ContinuationRecord): Promise<void>;
}

/**
 * Takes up the turns that were waiting for a person when the program
 * stopped (boot recovery lists them): they wait again, with the same
 * approval and the same deadline. One that cannot be taken up (no model
 * yet) still ends at its deadline; one whose deadline has passed ends now.
 */
export async function takeUpWaiting(deps: TakeUpWaitingDeps, waiting: readonly { owner: string; continuationId: string }[]): Promise<void> {
  const { store, clock, logger, running, expiry } = deps;
  for (const { owner, continuationId } of waiting) {
    const record = await store.continuations.get(owner, continuationId);
    if (!record || record.status !== "input_required" || running.has(continuationId)) continue;
    if (record.approval && approvalExpired(record.approval, clock.now())) {
      await expiry.idle(owner, record, record.approval).catch((err: unknown) => logger.warn({ continuation: continuationId, err: describeError(err) }, "a turn whose approval expired could not be ended; the next start ends it"));
      continue;
    }
    // The turn runs for its owner, an administrator or not as its request recorded (startTurn).
    const principal: Principal = { id: owner, name: owner, kind: owner.startsWith("addon:") ? "addon" : "user", isAdmin: false };
    await deps.takeUp(principal, record).catch((err: unknown) => {
      logger.warn({ continuation: continuationId, err: describeError(err) }, "a turn waiting for approval could not be taken up; it is taken up when the approval is answered, and ends at its deadline if no one does");
      if (record.approval) expiry.atDeadline(owner, continuationId, record.approval);
    });
  }
}
