import type { z } from "zod";
import type { StoreContext } from "./context.js";
import {
  ContinuationRecordSchema,
  ContinuationRequestSchema,
  type ArtifactRef,
  type ContinuationRecord,
  type ContinuationResponse,
  type Usage,
} from "./continuation-schema.js";
import { ContinuationFinalError, NotFoundError, SessionClosedError, TooManyOpenError } from "./errors.js";
import { checkId, isUlid } from "./ids.js";
import { readRecord } from "./read-record.js";
import { redactText } from "./redact.js";
import { FORMAT_VERSION, isOpenStatus, type ContinuationStatus, type MessageRef, type SessionMemory } from "./session-schema.js";
import { FinalDetailSchema } from "./step-schema.js";
import { addUsage } from "./stats.js";
import { appendFinal, closeWriter } from "./steps.js";

export type ContinuationRequestInput = z.input<typeof ContinuationRequestSchema>;

export interface ContinuationPatch {
  status?: ContinuationStatus;
  response?: ContinuationResponse;
  error?: { code: string; message: string };
  /** Totals for this continuation so far (not deltas). */
  usage?: Partial<Usage>;
  /**
   * New session memory, saved in the same `session.json` write as a final
   * status, so a turn costs one session write. Ignored otherwise.
   */
  memory?: SessionMemory;
}

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

export const isFinalStatus = (status: ContinuationStatus): boolean => !isOpenStatus(status) && status !== "interrupted";

export async function loadContinuation(ctx: StoreContext, continuationId: string): Promise<ContinuationRecord | undefined> {
  const open = ctx.openConts.get(continuationId);
  if (open) return open;
  const sessionId = ctx.contSession.get(continuationId);
  if (!sessionId) return undefined;
  const read = await readRecord(ctx.fs, ctx.layout.turnFile(sessionId, continuationId), ContinuationRecordSchema);
  if (read.kind === "corrupt") ctx.logger.warn({ continuationId, reason: read.reason }, "continuation record is damaged; run fsck");
  return read.kind === "ok" ? read.value : undefined;
}

function mergeArtifacts(a: ArtifactRef[], b: ArtifactRef[] | undefined): ArtifactRef[] {
  const seen = new Map(a.map((ref) => [ref.id, ref]));
  for (const ref of b ?? []) seen.set(ref.id, ref);
  return [...seen.values()];
}

export function createContinuationsApi(ctx: StoreContext): ContinuationsApi {
  async function ownedContinuation(owner: string, continuationId: string): Promise<ContinuationRecord> {
    const sessionId = isUlid(continuationId) ? ctx.contSession.get(continuationId) : undefined;
    const session = sessionId ? ctx.sessions.get(sessionId) : undefined;
    if (!session || session.owner !== owner) throw new NotFoundError("continuation", continuationId);
    const record = await loadContinuation(ctx, continuationId);
    if (!record) throw new NotFoundError("continuation", continuationId);
    return record;
  }

  /**
   * The write order makes each step safe on its own: (1) the `final` line,
   * fsynced with the last steps, holds the result from here on; (2) the turn
   * file, fsynced with its folder, because boot trusts a finished reference in
   * `session.json` without reading the turn; (3) `session.json` without its
   * folder fsync: if that rename is lost, the old file still lists the turn as
   * open or not at all, so boot reads the turn and redoes this write.
   */
  async function finish(record: ContinuationRecord, memory: SessionMemory | undefined): Promise<ContinuationRecord> {
    await appendFinal(
      ctx,
      record.sessionId,
      record.id,
      FinalDetailSchema.parse({
        status: record.status,
        usage: record.usage,
        ...(record.response ? { response: record.response } : {}),
        ...(record.error ? { error: record.error } : {}),
        ...(memory ? { memory } : {}),
      }),
    );
    const final = await ctx.writeTurn({ ...record, artifacts: mergeArtifacts(record.artifacts, ctx.contArtifacts.get(record.id)) });
    ctx.openConts.delete(record.id);
    ctx.contArtifacts.delete(record.id);
    await ctx.mutateSession(
      record.sessionId,
      (s) => ({
        ...s,
        lastActivityAt: final.updatedAt,
        openContinuations: s.openContinuations.filter((id) => id !== record.id),
        messages: s.messages.map((m) => (m.continuationId === record.id ? { ...m, status: final.status, updatedAt: final.updatedAt } : m)),
        stats: addUsage(s.stats, final.usage),
        ...(memory ? { memory } : {}),
      }),
      undefined,
      { syncDir: false },
    );
    return final;
  }

  return {
    async create(owner, sessionId, requestInput) {
      ctx.assertWritable();
      const session = ctx.ownedSession(owner, checkId("session", sessionId));
      const request = ContinuationRequestSchema.parse(requestInput);
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
    },

    async get(owner, continuationId) {
      try {
        return await ownedContinuation(owner, continuationId);
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },

    async update(owner, continuationId, patch) {
      ctx.assertWritable();
      return ctx.lock.run(`c:${continuationId}`, async () => {
        const current = await ownedContinuation(owner, continuationId);
        if (isFinalStatus(current.status)) throw new ContinuationFinalError(continuationId, current.status);
        const status = patch.status ?? current.status;
        const next: ContinuationRecord = {
          ...current,
          status,
          updatedAt: ctx.clock.now(),
          ...(patch.response ? { response: patch.response } : {}),
          ...(patch.error ? { error: patch.error } : {}),
          ...(patch.usage ? { usage: { ...current.usage, ...patch.usage } } : {}),
        };
        if (isFinalStatus(status)) return finish(next, patch.memory);
        if (current.status === "interrupted" && isOpenStatus(status)) {
          // Resuming: the continuation is open again, so boot recovery must find it.
          await ctx.mutateSession(current.sessionId, (s) => ({
            ...s,
            lastActivityAt: next.updatedAt,
            openContinuations: [...s.openContinuations.filter((id) => id !== continuationId), continuationId],
            messages: s.messages.map((m) => (m.continuationId === continuationId ? { ...m, status, updatedAt: next.updatedAt } : m)),
          }));
        }
        if (current.status !== "interrupted" && isOpenStatus(status)) {
          // pending → running → streaming is kept in memory only: recovery treats all three alike, and
          // skipping these writes saves two fsyncs per turn on the SD card.
          ctx.openConts.set(continuationId, next);
          return next;
        }
        const written = await ctx.writeTurn(next);
        if (isOpenStatus(status)) {
          ctx.openConts.set(continuationId, written);
          return written;
        }
        // Interrupted on purpose (e.g. a drain at shutdown): no longer open, but resumable.
        await closeWriter(ctx, continuationId);
        ctx.openConts.delete(continuationId);
        await ctx.mutateSession(current.sessionId, (s) => ({
          ...s,
          openContinuations: s.openContinuations.filter((id) => id !== continuationId),
          messages: s.messages.map((m) => (m.continuationId === continuationId ? { ...m, status, updatedAt: written.updatedAt } : m)),
        }));
        return written;
      });
    },

    list(owner, sessionId) {
      return ctx.ownedSession(owner, checkId("session", sessionId)).messages;
    },
  };
}
