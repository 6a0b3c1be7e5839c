import { dirname, join } from "node:path";
import type { Clock } from "../shared/index.js";
import { fsyncDir, writeFileAtomic } from "./atomic.js";
import { FORMAT_FILE, writeFormatMarker, type FormatFound } from "./data-format.js";
import { errnoOf } from "./errors.js";
import { FormatTooNewError } from "./format-too-new.js";
import type { StoreFs } from "./fs.js";
import { isUlid } from "./ids.js";
import { migrate1To2 } from "./migrate-1-to-2.js";
import type { MigrationStep, RecordKind } from "./migration-step.js";
import type { Layout } from "./paths.js";
import { MAX_RECORD_BYTES } from "./read-record.js";
import { FORMAT_VERSION } from "./session-schema.js";

/** Every step from format 1 to FORMAT_VERSION, in order; a test checks the chain is whole. */
export const MIGRATIONS: readonly MigrationStep[] = [migrate1To2];

/** A record a migration rewrites: where it is and the format it says it is in. */
interface Found {
  path: string;
  kind: RecordKind;
  formatVersion: number;
}

/** What a start must do before boot recovery: bring the directory from format `from` to FORMAT_VERSION. */
export interface MigrationPlan {
  from: number;
  /** True when an earlier start began this migration and stopped before it finished. */
  resumed: boolean;
  records: Found[];
  /** How many of `records` are in an older format than FORMAT_VERSION. */
  older: number;
}

export interface MigrationResult {
  from: number;
  to: number;
  resumed: boolean;
  /** Records rewritten, by kind. */
  rewritten: Record<RecordKind, number>;
  durationMs: number;
}

/**
 * Reads (only reads) whether the directory needs migrating, and which
 * records. A record in a newer format than this build's is a
 * FormatTooNewError here, before the lock is taken or anything written.
 * Undefined when the directory is already in the current format.
 */
export async function planMigration(options: { fs: StoreFs; layout: Layout; found: FormatFound }): Promise<MigrationPlan | undefined> {
  const { found } = options;
  if (found.kind === "ok" && found.marker.formatVersion === FORMAT_VERSION && found.marker.migratingFrom === undefined) return undefined;
  // No format.json: a new directory, or one written in format 1, before the file existed. A damaged one: the records say.
  const from = found.kind === "ok" ? (found.marker.migratingFrom ?? found.marker.formatVersion) : 1;
  const records = await findRecords(options.fs, options.layout);
  for (const r of records) if (r.formatVersion > FORMAT_VERSION) throw new FormatTooNewError(r.path, r.formatVersion);
  const older = records.filter((r) => r.formatVersion < FORMAT_VERSION).length;
  return { from, resumed: found.kind === "ok" && found.marker.migratingFrom !== undefined, records, older };
}

/**
 * Migrates the directory, crash-safely: `format.json` first says the target
 * format and where from (so an older build refuses the directory from here
 * on, and a crash is finished by the next start), then every record older
 * than FORMAT_VERSION is rewritten atomically (temp file, fsync, rename),
 * each touched folder is fsynced, and last `format.json` says the migration
 * is done. The caller holds the data directory's lock.
 */
export async function applyMigration(options: { fs: StoreFs; layout: Layout; clock: Clock; plan: MigrationPlan; appVersion?: string }): Promise<MigrationResult> {
  const { fs, layout, clock, plan } = options;
  const started = performance.now();
  const marker = { formatVersion: FORMAT_VERSION, ...(options.appVersion ? { writtenBy: options.appVersion } : {}) };
  const rewritten: Record<RecordKind, number> = { session: 0, turn: 0, artifactMeta: 0 };
  const folders = new Set<string>();
  const stale = plan.records.filter((r) => r.formatVersion < FORMAT_VERSION);
  if (plan.older > 0) await writeFormatMarker({ fs, dataDir: layout.dataDir, tmpDir: layout.tmpDir, marker: { ...marker, migratingFrom: plan.from, updatedAt: clock.now() } });
  for (const record of stale) {
    // Read again under the lock: the plan was made before it was taken.
    const value = await readJson(fs, record.path);
    const version = value?.formatVersion;
    if (!value || typeof version !== "number" || version >= FORMAT_VERSION) continue;
    let migrated = value;
    for (const step of MIGRATIONS) if (step.from >= version) migrated = step.record(record.kind, migrated);
    // Each file is fsynced before its rename; the folders are fsynced once below, before format.json says done.
    await writeFileAtomic({ fs, tmpDir: layout.tmpDir, path: record.path, data: `${JSON.stringify(migrated)}\n`, syncDir: false });
    folders.add(dirname(record.path));
    rewritten[record.kind] += 1;
  }
  for (const folder of folders) await fsyncDir(fs, folder);
  await writeFormatMarker({ fs, dataDir: layout.dataDir, tmpDir: layout.tmpDir, marker: { ...marker, updatedAt: clock.now() } });
  return { from: plan.from, to: FORMAT_VERSION, resumed: plan.resumed, rewritten, durationMs: Math.round(performance.now() - started) };
}

/** The one log line of a migration: from which format to which, and how many records. */
export function migrationLine(result: MigrationResult): string {
  const { session, turn, artifactMeta } = result.rewritten;
  const total = session + turn + artifactMeta;
  return (
    `data format ${result.from} → ${result.to}${result.resumed ? " (finishing a migration an earlier start began)" : ""}: ` +
    `${total} records rewritten (${session} sessions, ${turn} turns, ${artifactMeta} artifact metas) in ${result.durationMs} ms; ${FORMAT_FILE} says ${result.to}`
  );
}

/** Every session, turn and artifact meta file, with the format it says; files that do not parse are left to boot recovery. */
async function findRecords(fs: StoreFs, layout: Layout): Promise<Found[]> {
  const out: Found[] = [];
  const add = async (path: string, kind: RecordKind) => {
    const version = (await readJson(fs, path))?.formatVersion;
    if (typeof version === "number") out.push({ path, kind, formatVersion: version });
  };
  for (const sessionId of await names(fs, layout.sessionsDir)) {
    if (!isUlid(sessionId)) continue;
    await add(layout.sessionFile(sessionId), "session");
    for (const name of await names(fs, layout.turnsDir(sessionId))) {
      if (name.endsWith(".json") && isUlid(name.slice(0, -5))) await add(join(layout.turnsDir(sessionId), name), "turn");
    }
  }
  for (const name of await names(fs, layout.artifactsDir)) {
    if (name.endsWith(".meta.json") && isUlid(name.slice(0, -10))) await add(join(layout.artifactsDir, name), "artifactMeta");
  }
  return out;
}

async function names(fs: StoreFs, dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return [];
    throw err;
  }
}

/** The file's JSON object, or undefined when it is missing, too large or not an object (boot recovery deals with those). */
async function readJson(fs: StoreFs, path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const { size } = await fs.stat(path);
    if (size > MAX_RECORD_BYTES) return undefined;
    const value: unknown = JSON.parse((await fs.readFile(path)).toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch (err) {
    if (err instanceof SyntaxError || errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return undefined;
    throw err;
  }
}
