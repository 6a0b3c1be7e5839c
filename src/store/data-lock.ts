import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { HaAgentError, type Clock } from "../shared/index.js";
import { fsyncDir, writeSyncedFile } from "./atomic.js";
import { errnoOf } from "./errors.js";
import type { StoreFs } from "./fs.js";
import { systemProcessProbe, type ProcessProbe } from "./process-probe.js";

/** The lock file's name in the data directory. */
export const LOCK_FILE = "ha-agent.lock";

export const LockRecordSchema = z.object({
  pid: z.number().int().positive(),
  /** When the holder took the lock (ms since 1970). */
  bootedAt: z.number().int().nonnegative(),
  host: z.string().optional(),
  bootId: z.string().optional(),
  startTicks: z.string().optional(),
  /** Random per taking, so a release never removes a lock someone took over since. */
  lockId: z.string(),
});
export type LockRecord = z.infer<typeof LockRecordSchema>;

/** Another live process holds the data directory; the message names it and says what to do. */
export class DataDirInUseError extends HaAgentError {
  constructor(
    readonly holder: LockRecord,
    lockPath: string,
    advice: string,
  ) {
    const who = `pid ${holder.pid}${holder.host ? ` on ${holder.host}` : ""}, running since ${new Date(holder.bootedAt).toISOString()}`;
    super("data_dir_in_use", `Another HA Agent (${who}) is using the data directory. ${advice} If pid ${holder.pid} is not HA Agent, delete ${lockPath}.`);
  }
}

export interface LockOptions {
  fs: StoreFs;
  dataDir: string;
  clock: Clock;
  /** Which processes run; tests play a second process through it. */
  probe?: ProcessProbe;
  /** What a refusal asks the person to do, e.g. "Stop it first, or point DATA_DIR at another directory." */
  advice?: string;
}

export interface DataDirLock {
  readonly record: LockRecord;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

// Each lost race means another taker moved on, so a few rounds settle any start-up storm.
const MAX_ROUNDS = 50;
const BUSY_WAIT_MS = 10;

type Found = { kind: "missing" } | { kind: "valid"; text: string; record: LockRecord } | { kind: "unreadable"; text: string };

async function readLock(fs: StoreFs, path: string): Promise<Found> {
  let text: string;
  try {
    text = (await fs.readFile(path)).toString("utf8");
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return { kind: "missing" };
    throw err;
  }
  try {
    const parsed = LockRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? { kind: "valid", text, record: parsed.data } : { kind: "unreadable", text };
  } catch {
    return { kind: "unreadable", text };
  }
}

/**
 * Whether the recorded holder still runs. Our own pid is never a holder: it is
 * this process, or a process of an earlier boot of this container (whose node
 * often gets the same low pid). A live pid with another boot id or start time
 * is a later process that reused the pid.
 */
function isHeld(record: LockRecord, probe: ProcessProbe): boolean {
  if (record.pid === probe.pid) return false;
  const now = probe.identify(record.pid);
  if (!now) return false;
  if (record.bootId && now.bootId && record.bootId !== now.bootId) return false;
  if (record.startTicks && now.startTicks && record.startTicks !== now.startTicks) return false;
  return true;
}

/**
 * Creates `path` holding `text`, complete or not at all: written to a temp
 * file first and hard-linked into place, so a reader never sees a lock half
 * written. False when `path` exists already.
 */
async function createComplete(fs: StoreFs, path: string, text: string): Promise<boolean> {
  const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  await writeSyncedFile(fs, tmp, text);
  try {
    await fs.link(tmp, path);
    return true;
  } catch (err) {
    // ENOENT: the holder cleared our temp file as a leftover; the lock is taken.
    if (errnoOf(err) === "EEXIST" || errnoOf(err) === "ENOENT") return false;
    // File systems without hard links (FAT on a USB stick): an exclusive create, with a brief window where a reader sees it empty.
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(errnoOf(err) ?? "")) throw err;
    return createExclusive(fs, path, text);
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

async function createExclusive(fs: StoreFs, path: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await fs.open(path, "wx");
  } catch (err) {
    if (errnoOf(err) === "EEXIST") return false;
    throw err;
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Removes a stale lock. Only the holder of `{lock}.break` may remove the
 * lock, and it removes only the very content judged stale, so two takers of
 * one stale lock cannot both win: the second finds the first one's fresh lock.
 */
async function breakStale(options: { fs: StoreFs; lockPath: string; staleText: string; mine: string; probe: ProcessProbe }): Promise<void> {
  const { fs, lockPath, staleText, mine, probe } = options;
  const breakPath = `${lockPath}.break`;
  if (!(await createComplete(fs, breakPath, mine))) {
    const breaker = await readLock(fs, breakPath);
    if (breaker.kind === "valid" && isHeld(breaker.record, probe)) await new Promise((r) => setTimeout(r, BUSY_WAIT_MS));
    // A breaker that died mid-break: remove its marker only if nobody replaced it meanwhile.
    else if (breaker.kind !== "missing") await removeIfUnchanged(fs, breakPath, breaker.text);
    return;
  }
  try {
    const again = await readLock(fs, lockPath);
    if (again.kind !== "missing" && again.text === staleText) await fs.unlink(lockPath);
  } finally {
    await fs.unlink(breakPath).catch(() => undefined);
  }
}

/** Moves `path` aside, and back if what moved was not `expected` (someone replaced it in between). */
async function removeIfUnchanged(fs: StoreFs, path: string, expected: string): Promise<void> {
  const aside = `${path}.${randomBytes(6).toString("hex")}.stale`;
  try {
    await fs.rename(path, aside);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return;
    throw err;
  }
  const moved = (await fs.readFile(aside)).toString("utf8");
  if (moved !== expected) await fs.link(aside, path).catch(() => undefined);
  await fs.unlink(aside);
}

/**
 * Takes the data directory for this process: a lock file holding the pid,
 * when it was taken, the host and what tells this process from a later one
 * with the same pid. A lock whose holder is gone is taken over; one whose
 * holder runs is a DataDirInUseError.
 */
export async function lockDataDir(options: LockOptions): Promise<DataDirLock> {
  const { fs, dataDir } = options;
  const probe = options.probe ?? systemProcessProbe();
  const lockPath = join(dataDir, LOCK_FILE);
  const record: LockRecord = { pid: probe.pid, bootedAt: options.clock.now(), host: hostname(), ...probe.identify(probe.pid), lockId: randomBytes(8).toString("hex") };
  const mine = `${JSON.stringify(record)}\n`;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (await createComplete(fs, lockPath, mine)) {
      // The lock must outlive a power cut only to be judged stale by boot id afterwards; the fsync keeps it whole.
      await fsyncDir(fs, dataDir);
      await removeLeftovers(fs, dataDir);
      return { record, release: () => releaseLock(fs, lockPath, mine) };
    }
    const found = await readLock(fs, lockPath);
    if (found.kind === "missing") continue;
    if (found.kind === "valid" && isHeld(found.record, probe)) throw new DataDirInUseError(found.record, lockPath, options.advice ?? "Stop it first.");
    await breakStale({ fs, lockPath, staleText: found.text, mine, probe });
  }
  throw new HaAgentError("data_dir_lock_contended", `Could not take ${lockPath}: other processes kept taking it. Make sure only one HA Agent uses the data directory, then start again.`);
}

/** Temp files of takers killed half way; one still in use makes its taker find the lock taken. */
async function removeLeftovers(fs: StoreFs, dataDir: string): Promise<void> {
  for (const name of await fs.readdir(dataDir)) {
    if (name.startsWith(`${LOCK_FILE}.`) && name.endsWith(".tmp")) await fs.unlink(join(dataDir, name)).catch(() => undefined);
  }
}

async function releaseLock(fs: StoreFs, lockPath: string, mine: string): Promise<void> {
  const found = await readLock(fs, lockPath).catch(() => undefined);
  if (found && found.kind !== "missing" && found.text === mine) await fs.unlink(lockPath).catch(() => undefined);
}

/**
 * For a data directory that cannot be written (no lock can be taken): the
 * live holder named by an existing lock file, if any. Unreadable means none.
 */
export async function findLiveHolder(options: { fs: StoreFs; dataDir: string; probe?: ProcessProbe }): Promise<LockRecord | undefined> {
  const found = await readLock(options.fs, join(options.dataDir, LOCK_FILE)).catch(() => undefined);
  return found?.kind === "valid" && isHeld(found.record, options.probe ?? systemProcessProbe()) ? found.record : undefined;
}
