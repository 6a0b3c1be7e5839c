import type { StoreContext } from "./context.js";
import type { ArtifactRef, ContinuationRecord, ContinuationResponse, PendingApproval, Usage } from "./continuation-schema.js";
import { ownedContinuation } from "./continuation-read.js";
import { isFinalStatus } from "./session-schema.js";
import { ContinuationFinalError } from "./errors.js";
import { isOpenStatus, type ContinuationStatus, type SessionMemory } from "./session-schema.js";
import { FinalDetailSchema } from "./step-schema.js";
import { addUsage } from "./stats.js";
import { appendFinal, closeWriter } from "./steps.js";

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
  /** The approval an `input_required` turn waits for; `null` clears it when the turn runs again. */
  approval?: PendingApproval | null;
}

function mergeArtifacts(a: ArtifactRef[], b: ArtifactRef[] | undefined): ArtifactRef[] {
  const seen = new Map(a.map((ref) => [ref.id, ref]));
  for (const ref of b ?? []) seen.set(ref.id, ref);
  return [...seen.values()];
}

/**
 * Changes status, response, error or usage, and takes each transition's
 * writes: a final status finishes the turn, `interrupted` → open resumes it,
 * open → `interrupted` stops it on purpose, and moves between open statuses
 * stay in memory.
 */
export async function updateContinuation(ctx: StoreContext, ask: { owner: string; continuationId: string; patch: ContinuationPatch }): Promise<ContinuationRecord> {
  const { owner, continuationId, patch } = ask;
  ctx.assertWritable();
  return ctx.lock.run(`c:${continuationId}`, async () => {
    const current = await ownedContinuation(ctx, { owner, continuationId });
    if (isFinalStatus(current.status)) throw new ContinuationFinalError(continuationId, current.status);
    const status = patch.status ?? current.status;
    const { approval: _previous, ...rest } = current;
    const approval = patch.approval === undefined ? current.approval : (patch.approval ?? undefined);
    const next: ContinuationRecord = {
      ...rest,
      status,
      updatedAt: ctx.clock.now(),
      ...(patch.response ? { response: patch.response } : {}),
      ...(patch.error ? { error: patch.error } : {}),
      ...(patch.usage ? { usage: { ...current.usage, ...patch.usage } } : {}),
      // Only a turn that waits for a person holds an approval.
      ...(approval && status === "input_required" ? { approval } : {}),
    };
    if (isFinalStatus(status)) return finish(ctx, next, patch.memory);
    if (current.status === "interrupted" && isOpenStatus(status)) await resume(ctx, next);
    // Waiting for a person is written down: boot recovery keeps such a turn waiting instead of interrupting it.
    const waits = status === "input_required" || current.status === "input_required";
    if (current.status !== "interrupted" && isOpenStatus(status) && !waits) {
      // pending → running → streaming is kept in memory only: recovery treats all three alike, and
      // skipping these writes saves two fsyncs per turn on the SD card.
      ctx.openConts.set(continuationId, next);
      return next;
    }
    const written = await ctx.writeTurn(next);
    if (isOpenStatus(status)) {
      ctx.openConts.set(continuationId, written);
      // Lists of turns read session.json: they show the wait too (rare enough for the extra write).
      if (waits) await showStatus(ctx, written);
      return written;
    }
    return interruptOnPurpose(ctx, written);
  });
}

/**
 * The write order makes each step safe on its own: (1) the `final` line,
 * fsynced with the last steps, holds the result from here on; (2) the turn
 * file, fsynced with its folder, because boot trusts a finished reference in
 * `session.json` without reading the turn; (3) `session.json` without its
 * folder fsync: if that rename is lost, the old file still lists the turn as
 * open or not at all, so boot reads the turn and redoes this write; (4) the
 * turn's usage joins `usage.json` (see usage-file.ts).
 */
async function finish(ctx: StoreContext, record: ContinuationRecord, memory: SessionMemory | undefined): Promise<ContinuationRecord> {
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
  // (4) usage.json, last: counted only once final on disk, and counted at the next start if this write is lost.
  await ctx.usage?.add(final);
  return final;
}

/** Resuming: the continuation is open again, so boot recovery must find it. */
async function resume(ctx: StoreContext, next: ContinuationRecord): Promise<void> {
  await ctx.mutateSession(next.sessionId, (s) => ({
    ...s,
    lastActivityAt: next.updatedAt,
    openContinuations: [...s.openContinuations.filter((id) => id !== next.id), next.id],
    messages: s.messages.map((m) => (m.continuationId === next.id ? { ...m, status: next.status, updatedAt: next.updatedAt } : m)),
  }));
}

/** The session's reference to the turn takes its status, as lists of turns read it. */
async function showStatus(ctx: StoreContext, record: ContinuationRecord): Promise<void> {
  await ctx.mutateSession(
    record.sessionId,
    (s) => ({ ...s, messages: s.messages.map((m) => (m.continuationId === record.id ? { ...m, status: record.status, updatedAt: record.updatedAt } : m)) }),
    undefined,
    { syncDir: false },
  );
}

/** Interrupted on purpose (e.g. a drain at shutdown): no longer open, but resumable. */
async function interruptOnPurpose(ctx: StoreContext, written: ContinuationRecord): Promise<ContinuationRecord> {
  await closeWriter(ctx, written.id);
  ctx.openConts.delete(written.id);
  await ctx.mutateSession(written.sessionId, (s) => ({
    ...s,
    openContinuations: s.openContinuations.filter((id) => id !== written.id),
    messages: s.messages.map((m) => (m.continuationId === written.id ? { ...m, status: written.status, updatedAt: written.updatedAt } : m)),
  }));
  return written;
}
