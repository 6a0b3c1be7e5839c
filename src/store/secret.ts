import { randomBytes } from "node:crypto";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.js";
import { errnoOf } from "./errors.js";
import { nodeStoreFs, type StoreFs } from "./fs.js";

/** Bytes of a secret: a full-strength HMAC-SHA256 key. */
const SECRET_BYTES = 32;

/** Every file this fs creates (the temp file, then the secret it is renamed to) is readable by the owner alone. */
export const ownerOnlyFs: StoreFs = { ...nodeStoreFs, open: (path, flags) => fsp.open(path, flags, 0o600) };

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
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmpDir = join(options.dataDir, "tmp");
  await fsp.mkdir(tmpDir, { recursive: true });
  await writeFileAtomic({ fs: ownerOnlyFs, tmpDir, path, data: key });
  return { key: new Uint8Array(key), created: true };
}
