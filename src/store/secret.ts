import { randomBytes } from "node:crypto";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.js";
import { errnoOf } from "./errors.js";
import { nodeStoreFs, type StoreFs } from "./fs.js";

/** Bytes of a secret: a full-strength HMAC-SHA256 key. */
const SECRET_BYTES = 32;

/** Every file the store's fs creates is readable by the owner alone; kept under this name for writers that say so. */
export const ownerOnlyFs: StoreFs = nodeStoreFs;

/**
 * A random secret kept in the data directory (`secrets/{name}.key`, mode
 * 0600), made on first use and the same after every restart, so what was
 * signed before a restart still verifies after it. Written atomically and
 * fsynced; a file of the wrong size (it can only be damaged by hand) is
 * replaced, which only invalidates what the old one signed. The caller
 * holds the data directory's lock; the value never goes to a log.
 */
export async function loadSecret(options: { dataDir: string; name: string }): Promise<{ key: Uint8Array; created: boolean }> {
  const dir = join(options.dataDir, "secrets");
  const path = join(dir, `${options.name}.key`);
  try {
    const key = await fsp.readFile(path);
    if (key.length === SECRET_BYTES) return { key: new Uint8Array(key), created: false };
  } catch (err) {
    if (errnoOf(err) !== "ENOENT") throw err;
  }
  const key = randomBytes(SECRET_BYTES);
  await ownerOnlyFs.mkdir(dir);
  const tmpDir = join(options.dataDir, "tmp");
  await ownerOnlyFs.mkdir(tmpDir);
  await writeFileAtomic({ fs: ownerOnlyFs, tmpDir, path, data: key });
  return { key: new Uint8Array(key), created: true };
}
