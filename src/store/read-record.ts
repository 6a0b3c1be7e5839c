import type { z } from "zod";
import { errnoOf } from "./errors.js";
import { FormatTooNewError } from "./format-too-new.js";
import type { StoreFs } from "./fs.js";
import { FORMAT_VERSION } from "./session-schema.js";

export type ReadResult<T> = { kind: "ok"; value: T } | { kind: "missing" } | { kind: "corrupt"; reason: string };

/**
 * The largest record read. Records the store writes stay far below it (every
 * field is bounded); a bigger file was written by someone else, and reading
 * it whole at every boot could exhaust a small device's memory.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Reads and checks one JSON record. Never throws for damage: that is a value the caller reports. */
export async function readRecord<S extends z.ZodType>(fs: StoreFs, path: string, schema: S): Promise<ReadResult<z.infer<S>>> {
  let raw: Buffer;
  try {
    const { size } = await fs.stat(path);
    if (size > MAX_RECORD_BYTES) return { kind: "corrupt", reason: `the file is ${size} bytes, more than the ${MAX_RECORD_BYTES} a record may have` };
    raw = await fs.readFile(path);
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return { kind: "missing" };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch (err) {
    return { kind: "corrupt", reason: raw.length === 0 ? "the file is empty" : `not valid JSON (${(err as Error).message})` };
  }
  const formatVersion = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof formatVersion === "number" && formatVersion > FORMAT_VERSION) throw new FormatTooNewError(path, formatVersion);
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? issue.path.map(String).join(".") : "the record";
    return { kind: "corrupt", reason: `does not match the record format: ${where}: ${issue?.message ?? "invalid"}` };
  }
  return { kind: "ok", value: checked.data };
}
