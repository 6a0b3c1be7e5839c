import { z } from "zod";
import { writeFileAtomic, writeJsonAtomic } from "./atomic.js";
import type { StoreContext } from "./context.js";
import { ArtifactRefSchema, ContinuationRecordSchema, type ArtifactRef, type ContinuationRecord } from "./continuation-schema.js";
import { ArtifactTooLargeError, ContinuationFinalError, NotFoundError, errnoOf } from "./errors.js";
import { isUlid } from "./ids.js";
import { quarantine } from "./quarantine.js";
import { readRecord } from "./read-record.js";
import { redactText } from "./redact.js";
import { FORMAT_VERSION } from "./session-schema.js";

export const ArtifactMetaSchema = ArtifactRefSchema.extend({
  formatVersion: z.literal(FORMAT_VERSION),
  continuationId: z.string(),
  sessionId: z.string(),
  owner: z.string(),
  createdAt: z.number(),
});
export type ArtifactMeta = z.infer<typeof ArtifactMetaSchema>;

export interface ArtifactsApi {
  /**
   * Stores a large output of an open continuation. Text is redacted first.
   * Reference it from a step (`artifact` field) or it is collected once the
   * continuation finishes.
   */
  put(owner: string, continuationId: string, input: { content: string | Uint8Array; mediaType: string; name?: string }): Promise<ArtifactRef>;
  get(owner: string, artifactId: string): Promise<{ ref: ArtifactRef; content: Buffer } | undefined>;
  /** Removes artifacts no continuation references; running work is never touched. */
  collect(): Promise<{ removed: number; quarantined: number }>;
}

export async function putArtifact(
  ctx: StoreContext,
  input: { record: ContinuationRecord; content: string | Uint8Array; mediaType: string; name?: string },
): Promise<ArtifactRef> {
  const data = typeof input.content === "string" ? Buffer.from(redactText(input.content)) : input.content;
  if (data.byteLength > ctx.settings.artifactMaxBytes) throw new ArtifactTooLargeError(data.byteLength, ctx.settings.artifactMaxBytes);
  const id = ctx.newId();
  const ref: ArtifactRef = { id, bytes: data.byteLength, mediaType: input.mediaType, ...(input.name ? { name: input.name } : {}) };
  const meta: ArtifactMeta = {
    ...ref,
    formatVersion: FORMAT_VERSION,
    continuationId: input.record.id,
    sessionId: input.record.sessionId,
    owner: input.record.owner,
    createdAt: ctx.clock.now(),
  };
  ctx.inFlightArtifacts.add(id);
  try {
    // Content first: a meta file always points at complete content.
    await writeFileAtomic({ fs: ctx.fs, tmpDir: ctx.layout.tmpDir, path: ctx.layout.artifactFile(id), data });
    await writeJsonAtomic({ fs: ctx.fs, tmpDir: ctx.layout.tmpDir, path: ctx.layout.artifactMetaFile(id), value: meta });
  } finally {
    ctx.inFlightArtifacts.delete(id);
  }
  return ref;
}

async function isReferenced(ctx: StoreContext, meta: ArtifactMeta): Promise<boolean> {
  if (ctx.openConts.has(meta.continuationId)) return true;
  if (ctx.contSession.get(meta.continuationId) !== meta.sessionId) return false;
  const read = await readRecord(ctx.fs, ctx.layout.turnFile(meta.sessionId, meta.continuationId), ContinuationRecordSchema);
  // A damaged record is fsck's business; keep its artifacts until it is repaired.
  if (read.kind === "corrupt") return true;
  return read.kind === "ok" && read.value.artifacts.some((a) => a.id === meta.id);
}

export function createArtifactsApi(ctx: StoreContext): ArtifactsApi {
  return {
    async put(owner, continuationId, input) {
      ctx.assertWritable();
      const record = isUlid(continuationId) ? ctx.openConts.get(continuationId) : undefined;
      if (!record || record.owner !== owner) {
        const known = isUlid(continuationId) && ctx.sessions.get(ctx.contSession.get(continuationId) ?? "")?.owner === owner;
        if (known) throw new ContinuationFinalError(continuationId, "finished");
        throw new NotFoundError("continuation", continuationId);
      }
      return putArtifact(ctx, { record, ...input });
    },

    async get(owner, artifactId) {
      if (!isUlid(artifactId)) return undefined;
      const read = await readRecord(ctx.fs, ctx.layout.artifactMetaFile(artifactId), ArtifactMetaSchema);
      if (read.kind !== "ok" || read.value.owner !== owner) return undefined;
      try {
        const content = await ctx.fs.readFile(ctx.layout.artifactFile(artifactId));
        const { id, bytes, mediaType, name } = read.value;
        return { ref: { id, bytes, mediaType, ...(name ? { name } : {}) }, content };
      } catch (err) {
        if (errnoOf(err) === "ENOENT") return undefined;
        throw err;
      }
    },

    async collect() {
      let names: string[];
      try {
        names = await ctx.fs.readdir(ctx.layout.artifactsDir);
      } catch (err) {
        if (errnoOf(err) === "ENOENT") return { removed: 0, quarantined: 0 };
        throw err;
      }
      const metas = new Set(names.filter((n) => n.endsWith(".meta.json")).map((n) => n.slice(0, -".meta.json".length)));
      let removed = 0;
      let quarantined = 0;
      for (const name of names) {
        if (!isUlid(name) || ctx.inFlightArtifacts.has(name)) continue;
        if (!metas.has(name)) {
          // Content whose meta was never written: a put interrupted by a crash.
          if (await ctx.removeFile(ctx.layout.artifactFile(name))) removed += 1;
        }
      }
      for (const id of metas) {
        if (!isUlid(id) || ctx.inFlightArtifacts.has(id)) continue;
        const metaPath = ctx.layout.artifactMetaFile(id);
        const read = await readRecord(ctx.fs, metaPath, ArtifactMetaSchema);
        if (read.kind === "missing") continue;
        if (read.kind === "corrupt") {
          await quarantine({ fs: ctx.fs, layout: ctx.layout, now: ctx.clock.now(), path: metaPath, reason: read.reason });
          quarantined += 1;
          continue;
        }
        if (await isReferenced(ctx, read.value)) continue;
        // Content first: a meta left behind still lets the next sweep find the content.
        if ((await ctx.removeFile(ctx.layout.artifactFile(id))) && (await ctx.removeFile(metaPath))) removed += 1;
      }
      return { removed, quarantined };
    },
  };
}
