import { statfs, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { HaAgentError } from "../shared/index.js";
import { errnoOf } from "./errors.js";
import type { StoreFs } from "./fs.js";

/** The data directory can never work as given (a file, a virtual file system…); the fix is a setting. */
export class DataDirError extends HaAgentError {
  constructor(message: string) {
    super("data_dir_invalid", message);
  }
}

/** Magic numbers of kernel file systems that hold no files of ours (statfs(2)). */
const VIRTUAL_FS = new Map<number, string>([
  [0x9fa0, "proc"],
  [0x62656572, "sysfs"],
  [0x1cd1, "devpts"],
  [0x27e0eb, "cgroup"],
  [0x63677270, "cgroup2"],
  [0x64626720, "debugfs"],
  [0x73636673, "securityfs"],
]);

/** Why the store can read but not write right now: it starts, degraded, and says so. */
export type Writability = { writable: true } | { writable: false; reason: string };

const NOT_WRITABLE: Record<string, string> = {
  EROFS: "its file system is read-only; check the disk for errors and remount it read-write",
  EACCES: "permission is denied; check the folder's owner and mode",
  EPERM: "the operation is not permitted; check the folder's owner and mode",
  ENOSPC: "the disk is full; free some space",
  EDQUOT: "the disk quota is used up; free some space",
};

/**
 * Checks the data directory before anything is created in it. A path that
 * can never work is a DataDirError (the program stops with one line and
 * exit 2); one that cannot be written now starts degraded. Recursive mkdir
 * is only used after this check: on /proc it never returns.
 */
export async function checkDataDir(fs: StoreFs, dataDir: string, setting: string): Promise<Writability> {
  const path = resolve(dataDir);
  const nearest = await nearestExisting(path);
  const info = await stat(nearest);
  if (!info.isDirectory()) {
    throw new DataDirError(
      nearest === path ? `${setting} (${dataDir}) is a file, not a directory. Point ${setting} at a directory.` : `${setting} (${dataDir}) is inside ${nearest}, which is a file. Point ${setting} at a directory.`,
    );
  }
  const kind = VIRTUAL_FS.get(Number((await statfs(nearest)).type));
  if (kind) throw new DataDirError(`${setting} (${dataDir}) is on the kernel's ${kind} file system, which cannot hold files. Point ${setting} at a directory on a disk.`);
  try {
    await fs.mkdir(path);
    const probe = join(path, ".write-check");
    const handle = await fs.open(probe, "w");
    try {
      await handle.writeFile("ok\n");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rm(probe);
    return { writable: true };
  } catch (err) {
    const errno = errnoOf(err);
    const why = (errno && NOT_WRITABLE[errno]) ?? (errno === "ENOENT" ? "it cannot be created; check that its parent folder can be written" : undefined);
    if (why) return { writable: false, reason: `HA Agent cannot write to its data directory (${setting}): ${why}. Sessions are unavailable until that is fixed and HA Agent restarts; the home's tools keep working.` };
    throw new DataDirError(`${setting} (${dataDir}) cannot be used: ${errno ?? String(err)}. Point ${setting} at a directory HA Agent can write.`);
  }
}

async function nearestExisting(path: string): Promise<string> {
  for (let p = path; ; p = dirname(p)) {
    try {
      await stat(p);
      return p;
    } catch (err) {
      if (errnoOf(err) === "ENOTDIR") continue;
      if (errnoOf(err) !== "ENOENT" || dirname(p) === p) return p;
    }
  }
}
