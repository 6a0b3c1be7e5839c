import type { StoreContext } from "./context.js";
import { ContinuationRecordSchema, type ContinuationRecord } from "./continuation-schema.js";
import { NotFoundError } from "./errors.js";
import { isUlid } from "./ids.js";
import { readRecord } from "./read-record.js";

/** An open turn from memory, any other from its file; undefined when unknown or unreadable. */
export async function loadContinuation(ctx: StoreContext, continuationId: string): Promise<ContinuationRecord | undefined> {
  const open = ctx.openConts.get(continuationId);
  if (open) return open;
  const sessionId = ctx.contSession.get(continuationId);
  if (!sessionId) return undefined;
  const read = await readRecord(ctx.fs, ctx.layout.turnFile(sessionId, continuationId), ContinuationRecordSchema);
  if (read.kind === "corrupt") ctx.logger.warn({ continuationId, reason: read.reason }, "continuation record is damaged; run fsck");
  return read.kind === "ok" ? read.value : undefined;
}

/** The continuation if `owner` may see it; another principal's is reported as unknown, on purpose. */
export async function ownedContinuation(ctx: StoreContext, ask: { owner: string; continuationId: string }): Promise<ContinuationRecord> {
  const { owner, continuationId } = ask;
  const sessionId = isUlid(continuationId) ? ctx.contSession.get(continuationId) : undefined;
  const session = sessionId ? ctx.sessions.get(sessionId) : undefined;
  if (!session || session.owner !== owner) throw new NotFoundError("continuation", continuationId);
  const record = await loadContinuation(ctx, continuationId);
  if (!record) throw new NotFoundError("continuation", continuationId);
  return record;
}
