import type { ArtifactsApi } from "./artifacts.js";
import type { StoreContext } from "./context.js";
import { isOpenStatus } from "./session-schema.js";

export interface SweepReport {
  expiredSessions: number;
  removedSessions: number;
  removedContinuations: number;
  removedArtifacts: number;
  durationMs: number;
}

/**
 * Expires idle sessions, removes finished continuations past retention,
 * deletes sessions that stayed ended or expired for another idle period,
 * and collects unreferenced artifacts. Open continuations are never touched.
 */
export async function sweep(ctx: StoreContext, artifacts: ArtifactsApi): Promise<SweepReport> {
  const started = performance.now();
  const now = ctx.clock.now();
  const { sessionIdleMs, continuationRetentionMs } = ctx.settings;
  const report: SweepReport = { expiredSessions: 0, removedSessions: 0, removedContinuations: 0, removedArtifacts: 0, durationMs: 0 };
  // Ages by both clocks: what was written under a wrong clock is not swept the moment it is corrected.
  const age = (key: string, at: number) => ctx.ages.age(key, at);
  for (const session of [...ctx.sessions.values()]) {
    const busy = session.openContinuations.length > 0;
    if (!busy && session.status !== "active" && age(`s:${session.id}`, session.endedAt ?? session.updatedAt) > sessionIdleMs) {
      await ctx.lock.run(`s:${session.id}`, async () => {
        await ctx.fs.rm(ctx.layout.sessionDir(session.id));
        ctx.dropSession(session.id);
      });
      for (const m of session.messages) ctx.contSession.delete(m.continuationId);
      report.removedSessions += 1;
      continue;
    }
    const old = session.messages.filter((m) => !isOpenStatus(m.status) && !session.openContinuations.includes(m.continuationId) && age(`c:${m.continuationId}`, m.updatedAt) > continuationRetentionMs);
    const expire = !busy && session.status === "active" && age(`a:${session.id}`, session.lastActivityAt) > sessionIdleMs;
    if (old.length === 0 && !expire) continue;
    const gone = new Set(old.map((m) => m.continuationId));
    // session.json first, then the files: a crash in between leaves unlisted files, never a listed file that is missing.
    const after = await ctx.mutateSession(session.id, (s) => ({
      ...s,
      messages: s.messages.filter((m) => !gone.has(m.continuationId)),
      idempotencyKeys: s.idempotencyKeys.filter((k) => !gone.has(k.continuationId)),
      ...(expire && s.status === "active" && s.openContinuations.length === 0 ? { status: "expired" as const, endedAt: now } : {}),
    }));
    for (const id of gone) {
      ctx.contSession.delete(id);
      ctx.ages.forget(`c:${id}`);
      await ctx.removeFile(ctx.layout.turnFile(session.id, id));
      await ctx.removeFile(ctx.layout.logFile(session.id, id));
    }
    report.removedContinuations += gone.size;
    // A turn started while the sweep waited for the lock keeps the session active.
    if (after.status === "expired" && session.status === "active") report.expiredSessions += 1;
  }
  report.removedArtifacts = (await artifacts.collect()).removed;
  report.durationMs = Math.round(performance.now() - started);
  return report;
}
