import type { StoreContext } from "./context.js";
import type { ContinuationRecord } from "./continuation-schema.js";
import { createContinuation, type ContinuationRequestInput } from "./continuation-create.js";
import { ownedContinuation } from "./continuation-read.js";
import { updateContinuation, type ContinuationPatch } from "./continuation-update.js";
import { NotFoundError } from "./errors.js";
import { checkId, isUlid } from "./ids.js";
import type { MessageRef } from "./session-schema.js";

export { isFinalStatus } from "./session-schema.js";
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
  /** References to all of `owner`'s continuations, newest first, a page at a time (default 50, at most 100). */
  listOwned(owner: string, options?: { limit?: number; cursor?: string }): { continuations: MessageRef[]; nextCursor?: string };
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
    listOwned(owner, options = {}) {
      const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
      // The cursor is the last id of the previous page: ULIDs sort by creation time.
      const cursor = options.cursor !== undefined && isUlid(options.cursor) ? options.cursor : undefined;
      const mine: MessageRef[] = [];
      for (const s of ctx.sessions.values()) if (s.owner === owner) for (const m of s.messages) if (!cursor || m.continuationId < cursor) mine.push(m);
      mine.sort((a, b) => (a.continuationId < b.continuationId ? 1 : -1));
      const page = mine.slice(0, limit);
      const last = page.at(-1);
      return mine.length > limit && last ? { continuations: page, nextCursor: last.continuationId } : { continuations: page };
    },
  };
}
