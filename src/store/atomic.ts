import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { StorageError, errnoOf, isDiskError } from "./errors.js";
import type { StoreFs } from "./fs.js";

/** fsync a directory, so a rename or a new file in it survives a power cut. */
export async function fsyncDir(fs: StoreFs, dir: string): Promise<void> {
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Turns a disk refusal into a StorageError that says what to do; anything else passes through. */
export function asStorageError(action: string, err: unknown): unknown {
  if (err instanceof StorageError) return err;
  return isDiskError(err) ? new StorageError(action, errnoOf(err), err) : err;
}

export interface AtomicWrite {
  fs: StoreFs;
  tmpDir: string;
  path: string;
  /**
   * false skips the directory fsync: the rename may then be lost to a power
   * cut, leaving the previous version. Only for writes that recovery can
   * redo from elsewhere (a finished turn's `session.json`, from its log's
   * `final` line).
   */
  syncDir?: boolean;
}

/**
 * Crash-safe whole-file write: temp file → write → fsync → rename → fsync the
 * directory. The old file stays intact until the rename, so a failure at any
 * point leaves either the old or the new content, never a mix.
 */
/** Creates `path` (it must not exist), writes `data` and fsyncs it: the first half of every crash-safe write. */
export async function writeSyncedFile(fs: StoreFs, path: string, data: string | Uint8Array): Promise<void> {
  const handle = await fs.open(path, "wx");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function writeFileAtomic(options: AtomicWrite & { data: string | Uint8Array }): Promise<void> {
  const { fs, tmpDir, path, data } = options;
  const tmp = join(tmpDir, `${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeSyncedFile(fs, tmp, data);
    await fs.rename(tmp, path);
    if (options.syncDir !== false) await fsyncDir(fs, dirname(path));
  } catch (err) {
    await fs.unlink(tmp).catch(() => undefined);
    throw asStorageError(`write ${basename(path)}`, err);
  }
}

/** Atomic JSON write; one compact line plus a newline, so `cat` and `jq` show it well. */
export async function writeJsonAtomic(options: AtomicWrite & { value: unknown }): Promise<void> {
  await writeFileAtomic({ ...options, data: `${JSON.stringify(options.value)}\n` });
}
