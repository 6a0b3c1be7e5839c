import { join } from "node:path";
import { errnoOf } from "./errors.js";
import { OWNER_DIR_MODE, OWNER_FILE_MODE, type StoreFs, type StoreStat } from "./fs.js";

/** Permission bits that let the group or others in. */
const OTHERS = 0o077;

export interface ModesReport {
  /** Files and folders found readable (or writable) by others: made owner-only when repairing, counted otherwise. */
  loose: number;
  /** Those that could not be changed, in words. */
  problems: string[];
}

/**
 * Makes every file and folder under the data directory owner-only (files
 * 0600, folders 0700), as this version creates them. Older versions wrote
 * 0644 and 0755, so their files are tightened at start.
 *
 * A top-level folder that is already owner-only is not walked: this
 * version creates folders owner-only, and a walk chmods a folder only after
 * everything in it, so such a folder was written, or tightened in full,
 * before. `deep` (fsck) walks everything. Symbolic links are never followed
 * nor changed. The data directory itself is left as its owner set it.
 */
export async function tightenModes(options: { fs: StoreFs; dataDir: string; repair: boolean; deep: boolean }): Promise<ModesReport> {
  const report: ModesReport = { loose: 0, problems: [] };
  const walk = async (dir: string, all: boolean): Promise<void> => {
    for (const name of await listOrEmpty(options.fs, dir)) {
      const path = join(dir, name);
      const stat = await options.fs.lstat(path).catch(() => undefined);
      if (!stat || stat.isSymbolicLink()) continue;
      if (stat.isDirectory()) {
        if (!all && isTight(stat)) continue;
        await walk(path, true);
        await tighten(options, report, path, stat, OWNER_DIR_MODE);
      } else if (stat.isFile()) {
        await tighten(options, report, path, stat, OWNER_FILE_MODE);
      }
    }
  };
  await walk(options.dataDir, options.deep);
  return report;
}

const isTight = (stat: StoreStat): boolean => (stat.mode & OTHERS) === 0;

async function tighten(options: { fs: StoreFs; repair: boolean }, report: ModesReport, path: string, stat: StoreStat, mode: number): Promise<void> {
  if (isTight(stat)) return;
  report.loose += 1;
  if (!options.repair) return;
  try {
    // A file keeps its owner's bits (one made read-only by hand stays so); group and others lose theirs.
    await options.fs.chmod(path, stat.isDirectory() ? mode : stat.mode & 0o700);
  } catch (err) {
    report.problems.push(`${path} could not be made owner-only (${errnoOf(err) ?? String(err)}); change its mode by hand: chmod ${mode.toString(8)} ${path}.`);
  }
}

async function listOrEmpty(fs: StoreFs, dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return [];
    throw err;
  }
}
