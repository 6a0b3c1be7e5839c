import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

/** Bumped whenever what the index derives from HA changes meaning, so an upgrade rebuilds. */
export const INDEX_FORMAT_VERSION = 1;

export const IndexMetaSchema = z.object({
  formatVersion: z.number().int(),
  haVersion: z.string().nullable(),
  /** Epoch milliseconds. */
  builtAt: z.number(),
});
export type IndexMeta = z.infer<typeof IndexMetaSchema>;

/** Reads `index/meta.json`; undefined when it is missing or unreadable (both mean "rebuild"). */
export async function readIndexMeta(dataDir: string): Promise<IndexMeta | undefined> {
  try {
    const parsed = IndexMetaSchema.safeParse(JSON.parse(await readFile(join(dataDir, "index", "meta.json"), "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `index/meta.json` crash-safely: temp file, fsync, rename, fsync of the folder. */
export async function writeIndexMeta(dataDir: string, meta: IndexMeta): Promise<void> {
  const dir = join(dataDir, "index");
  // Owner-only, like everything under the data directory.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = join(dir, "meta.json");
  const temp = `${target}.tmp-${process.pid}`;
  try {
    const file = await open(temp, "w", 0o600);
    try {
      await file.writeFile(`${JSON.stringify(IndexMetaSchema.parse(meta), null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, target);
  } catch (err) {
    // A full disk must not also leave a stray temp file behind.
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  const folder = await open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
