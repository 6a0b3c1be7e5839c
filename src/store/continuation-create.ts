import type { z } from "zod";
import type { StoreContext } from "./context.js";
import { ContinuationRecordSchema, ContinuationRequestSchema, type ContinuationRecord } from "./continuation-schema.js";
import { loadContinuation } from "./continuation-read.js";
import { NotFoundError, SessionClosedError, TooManyOpenError } from "./errors.js";
import { checkId } from "./ids.js";
import { redactText } from "./redact.js";
import { FORMAT_VERSION, type MessageRef } from "./session-schema.js";

export type ContinuationRequestInput = z.input<typeof ContinuationRequestSchema>;

/**
 * Creates a `pending` continuation. A repeated `idempotencyKey` in the same
 * session returns the first continuation with `created: false`.
 */
export async function createContinuation(
  ctx: StoreContext,
  ask: { owner: string; sessionId: string; request: ContinuationRequestInput },
): Promise<{ continuation: ContinuationRecord; created: boolean }> {
  const { owner, sessionId } = ask;
  ctx.assertWritable();
  const session = ctx.ownedSession(owner, checkId("session", sessionId));
  const request = ContinuationRequestSchema.parse(ask.request);
  return ctx.lock.run(`create:${session.id}`, async () => {
    const current = ctx.ownedSession(owner, sessionId);
    if (current.status !== "active") throw new SessionClosedError(sessionId, current.status);
    const key = request.idempotencyKey;
    const earlier = key === undefined ? undefined : current.idempotencyKeys.find((k) => k.key === key);
    if (earlier) {
      const first = await loadContinuation(ctx, earlier.continuationId);
      if (first) return { continuation: first, created: false };
    }
    if (current.openContinuations.length >= current.policy.maxOpenContinuations) {
      throw new TooManyOpenError(sessionId, current.policy.maxOpenContinuations);
    }
    const now = ctx.clock.now();
    const id = ctx.newId();
    const record = ContinuationRecordSchema.parse({
      formatVersion: FORMAT_VERSION,
      id,
      sessionId,
      owner,
      status: "pending",
      createdAt: now,
      updatedAt: now,
      request,
    });
    const ref: MessageRef = { continuationId: id, status: "pending", createdAt: now, updatedAt: now, preview: redactText(request.message).slice(0, 80) };
    // Only the turn file is written (and its folder fsynced), under the session's lock so an
    // end() cannot slip in between. session.json learns of the turn with its next write; until
    // then boot finds the turn by listing turns/ and adopts it, idempotency key included.
    let written: ContinuationRecord | undefined;
    await ctx.amendSession(sessionId, async (s) => {
      // The session may have been ended while this call waited for its turn.
      if (s.status !== "active") throw new SessionClosedError(sessionId, s.status);
      written = await ctx.writeTurn(record);
      return {
        ...s,
        lastActivityAt: now,
        messages: [...s.messages, ref],
        openContinuations: [...s.openContinuations, id],
        idempotencyKeys: key === undefined ? s.idempotencyKeys : [...s.idempotencyKeys.filter((k) => k.key !== key), { key, continuationId: id }],
      };
    });
    if (!written) throw new NotFoundError("session", sessionId);
    ctx.contSession.set(id, sessionId);
    ctx.openConts.set(id, written);
    return { continuation: written, created: true };
  });
}
