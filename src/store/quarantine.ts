import { join, relative } from "node:path";
import { writeFileAtomic } from "./atomic.js";
import type { StoreFs } from "./fs.js";
import type { Layout } from "./paths.js";

export interface QuarantineEntry {
  /** Where the file was, relative to the data directory. */
  path: string;
  reason: string;
  /** Where it is now, relative to the data directory. */
  movedTo: string;
}

/**
 * Moves a damaged file out of the way, next to a `.why.txt` note, so the
 * store can start while nothing is silently dropped.
 */
export async function quarantine(options: { fs: StoreFs; layout: Layout; now: number; path: string; reason: string }): Promise<QuarantineEntry> {
  const { fs, layout, path, reason } = options;
  const rel = relative(layout.dataDir, path);
  const stamp = new Date(options.now).toISOString().replace(/[:.]/g, "-");
  const flat = `${stamp}__${rel.split(/[\\/]/).join("__")}`;
  const target = join(layout.quarantineDir, flat);
  await fs.mkdir(layout.quarantineDir);
  const note = `original path: ${rel}\nreason: ${reason}\nquarantined at: ${new Date(options.now).toISOString()}\n`;
  await writeFileAtomic({ fs, tmpDir: layout.tmpDir, path: `${target}.why.txt`, data: note });
  await fs.rename(path, target);
  return { path: rel, reason, movedTo: relative(layout.dataDir, target) };
}
