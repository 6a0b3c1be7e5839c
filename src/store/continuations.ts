import type { StoreContext } from "./context.js";
import type { ContinuationRecord } from "./continuation-schema.js";
import { createContinuation, type ContinuationRequestInput } from "./continuation-create.js";
import { ownedContinuation } from "./continuation-read.js";
import { updateContinuation, type ContinuationPatch } from "./continuation-update.js";
import { NotFoundError } from "./errors.js";
import { checkId } from "./ids.js";
import type { MessageRef } from "./session-schema.js";

export { isFinalStatus } from "./continuation-read.js";
export type { ContinuationRequestInput } from "./continuation-create.js";
export type { ContinuationPatch } from "./continuation-update.js";

export interface ContinuationsApi {
  /**
   * Creates a `pending` continuation. A repeated `idempotencyKey` in the same
   * session returns the first continuation with `created: false`.
   */
  create(owner: string, sessionId: string, request: ContinuationRequestInput): Promise<{ continuation: ContinuationRecord; created: boolean }>;
  /** The continuation, or undefined when unknown or another principal's. */
  get(owner: string, continuationId: string): Promise<ContinuationRecord | undefined>;
  /**
   * Changes status, response, error or usage. A final status (`completed`,
   * `failed`, `cancelled`, `expired`) flushes the step log first and never
   * changes again; `interrupted` may go back to `running` (resume).
   */
  update(owner: string, continuationId: string, patch: ContinuationPatch): Promise<ContinuationRecord>;
  /** References to the session's continuations, oldest first. */
  list(owner: string, sessionId: string): MessageRef[];
}

/** The continuations API over the store's state: create, transitions, and the two queries. */
export function createContinuationsApi(ctx: StoreContext): ContinuationsApi {
  return {
    create: (owner, sessionId, request) => createContinuation(ctx, { owner, sessionId, request }),
    async get(owner, continuationId) {
      try {
        return await ownedContinuation(ctx, { owner, continuationId });
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },
    update: (owner, continuationId, patch) => updateContinuation(ctx, { owner, continuationId, patch }),
    list: (owner, sessionId) => ctx.ownedSession(owner, checkId("session", sessionId)).messages,
  };
}
