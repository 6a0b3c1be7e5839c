import type { StoreContext } from "./context.js";
import { ContinuationFinalError, NotFoundError, errnoOf } from "./errors.js";
import { isUlid } from "./ids.js";
import { parseLog } from "./log-format.js";
import { redactSecrets } from "./redact.js";
import { StepLogWriter } from "./step-log.js";
import { StepEntrySchema, type FinalDetail, type LogLine, type StepEntry, type StoredLine } from "./step-schema.js";
import { putArtifact } from "./artifacts.js";

export interface StepsApi {
  /**
   * Appends one step to the continuation's log. Without `durable` it joins
   * the next group commit; with `durable: true` (intent records before an
   * action) it resolves only after the line is fsynced.
   */
  append(owner: string, continuationId: string, entry: StepEntry, options?: { durable?: boolean }): Promise<LogLine>;
  /** Writes and fsyncs whatever is buffered; call at the end of a turn. */
  flush(continuationId: string): Promise<void>;
  /** All intact step lines of the log, including buffered ones (they are flushed first); the store's `final` line is left out. */
  read(owner: string, continuationId: string): Promise<LogLine[]>;
}

async function readLogFile(ctx: StoreContext, path: string): Promise<Buffer | undefined> {
  try {
    return await ctx.fs.readFile(path);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return undefined;
    throw err;
  }
}

/** The writer of an open continuation, continuing after the last intact line of an existing log. */
async function writerFor(ctx: StoreContext, sessionId: string, continuationId: string): Promise<StepLogWriter> {
  const existing = ctx.writers.get(continuationId);
  if (existing) return existing;
  const path = ctx.layout.logFile(sessionId, continuationId);
  const buf = await readLogFile(ctx, path);
  const parsed = buf ? parseLog(buf) : undefined;
  if (parsed && parsed.goodBytes < parsed.totalBytes) await ctx.fs.truncate(path, parsed.goodBytes);
  const again = ctx.writers.get(continuationId);
  if (again) return again;
  const writer = new StepLogWriter({
    fs: ctx.fs,
    path,
    commit: ctx.settings.flush,
    logger: ctx.logger,
    lastSeq: parsed?.lines.at(-1)?.seq ?? 0,
    size: parsed?.goodBytes ?? 0,
    exists: buf !== undefined,
  });
  ctx.writers.set(continuationId, writer);
  return writer;
}

const isStep = (line: StoredLine): line is LogLine => line.type !== "final";

/**
 * Appends the `final` line and fsyncs it together with any buffered steps:
 * the end-of-turn flush, so it adds no fsync of its own. Then closes the writer.
 */
export async function appendFinal(ctx: StoreContext, sessionId: string, continuationId: string, detail: FinalDetail): Promise<void> {
  const writer = await writerFor(ctx, sessionId, continuationId);
  await writer.appendNow({ type: "final", detail: redactSecrets(detail) }, ctx.clock.now());
  await closeWriter(ctx, continuationId);
}

export async function closeWriter(ctx: StoreContext, continuationId: string): Promise<void> {
  const writer = ctx.writers.get(continuationId);
  if (!writer) return;
  await writer.close();
  ctx.writers.delete(continuationId);
}

export function createStepsApi(ctx: StoreContext): StepsApi {
  function openRecord(owner: string, continuationId: string) {
    const record = isUlid(continuationId) ? ctx.openConts.get(continuationId) : undefined;
    if (record && record.owner === owner) return record;
    const sessionId = isUlid(continuationId) ? ctx.contSession.get(continuationId) : undefined;
    const session = sessionId ? ctx.sessions.get(sessionId) : undefined;
    if (!session || session.owner !== owner) throw new NotFoundError("continuation", continuationId);
    throw new ContinuationFinalError(continuationId, session.messages.find((m) => m.continuationId === continuationId)?.status ?? "finished");
  }

  return {
    async append(owner, continuationId, rawEntry, options = {}) {
      ctx.assertWritable();
      const record = openRecord(owner, continuationId);
      let entry = redactSecrets(StepEntrySchema.parse(rawEntry));
      const detailText = JSON.stringify(entry.detail ?? null);
      if (Buffer.byteLength(detailText) > ctx.settings.inlineDetailMaxBytes && !entry.artifact) {
        // Large outputs live in an artifact; the log keeps a preview and the reference.
        const artifact = await putArtifact(ctx, { record, content: detailText, mediaType: "application/json" });
        entry = { ...entry, detail: { preview: detailText.slice(0, 200), movedToArtifact: true }, artifact };
      }
      if (entry.artifact) ctx.contArtifacts.set(continuationId, [...(ctx.contArtifacts.get(continuationId) ?? []), entry.artifact]);
      const writer = await writerFor(ctx, record.sessionId, continuationId);
      // A caller's entry is a step (StepEntrySchema has no "final"), so its line is one too.
      return (await writer.append(entry, ctx.clock.now(), options.durable === true)) as LogLine;
    },

    async flush(continuationId) {
      await ctx.writers.get(continuationId)?.flush();
    },

    async read(owner, continuationId) {
      const sessionId = isUlid(continuationId) ? ctx.contSession.get(continuationId) : undefined;
      const session = sessionId ? ctx.sessions.get(sessionId) : undefined;
      if (!sessionId || !session || session.owner !== owner) throw new NotFoundError("continuation", continuationId);
      await ctx.writers.get(continuationId)?.flush();
      const buf = await readLogFile(ctx, ctx.layout.logFile(sessionId, continuationId));
      return buf ? parseLog(buf).lines.filter(isStep) : [];
    },
  };
}
