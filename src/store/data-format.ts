import { join } from "node:path";
import { z } from "zod";
import { writeJsonAtomic } from "./atomic.js";
import { errnoOf } from "./errors.js";
import { FormatTooNewError } from "./format-too-new.js";
import type { StoreFs } from "./fs.js";
import { FORMAT_VERSION } from "./session-schema.js";

/** The data directory's own record of its format, at its top. */
export const FORMAT_FILE = "format.json";

/**
 * `format.json`. `formatVersion` is the format every record under the data
 * directory is in; while `migratingFrom` is set, a migration to it has
 * begun and not finished, so some records may still be in that older format.
 * The target is written before any record is rewritten: a build that reads
 * only an older format then refuses the directory instead of reading half
 * of it.
 */
export const FormatMarkerSchema = z.object({
  formatVersion: z.number().int().positive(),
  migratingFrom: z.number().int().positive().optional(),
  /** The HA Agent version that last wrote this file (it is written when the format changes or another version starts). */
  writtenBy: z.string().max(64).optional(),
  updatedAt: z.number().int().nonnegative(),
});
export type FormatMarker = z.infer<typeof FormatMarkerSchema>;

/**
 * What the data directory says of its format: `missing` for a new directory
 * or one written before the file existed (format 1), `unreadable` for a
 * damaged file (the records themselves then say their format).
 */
export type FormatFound = { kind: "missing" } | { kind: "ok"; marker: FormatMarker } | { kind: "unreadable"; reason: string };

/** Reads `format.json`. Only reads: it runs before anything else touches the directory. */
export async function readFormatMarker(fs: StoreFs, dataDir: string): Promise<FormatFound> {
  let text: string;
  try {
    text = (await fs.readFile(join(dataDir, FORMAT_FILE))).toString("utf8");
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return { kind: "missing" };
    throw err;
  }
  try {
    const parsed = FormatMarkerSchema.safeParse(JSON.parse(text));
    return parsed.success ? { kind: "ok", marker: parsed.data } : { kind: "unreadable", reason: parsed.error.issues[0]?.message ?? "invalid" };
  } catch {
    return { kind: "unreadable", reason: "not valid JSON" };
  }
}

/**
 * Throws FormatTooNewError when a newer HA Agent wrote the directory; it is
 * called before the lock is taken or any file is written, so a refused
 * start leaves the directory exactly as it was.
 */
export function refuseNewerFormat(dataDir: string, found: FormatFound): void {
  if (found.kind === "ok" && found.marker.formatVersion > FORMAT_VERSION) throw new FormatTooNewError(`The data directory ${dataDir}`, found.marker.formatVersion, found.marker.writtenBy);
}

/** Writes `format.json` crash-safely (temp file, fsync, rename, fsync the directory). */
export async function writeFormatMarker(options: { fs: StoreFs; dataDir: string; tmpDir: string; marker: FormatMarker }): Promise<void> {
  const { fs, dataDir, tmpDir, marker } = options;
  await fs.mkdir(tmpDir);
  await writeJsonAtomic({ fs, tmpDir, path: join(dataDir, FORMAT_FILE), value: FormatMarkerSchema.parse(marker) });
}
