import { join } from "node:path";
import type { Clock, Logger, Monotonic } from "../shared/index.js";
import { CLOCK_JUMP_MS, silentLogger, systemClock, systemMonotonic, describeError } from "../shared/index.js";
import { CLOCK_MARK_INTERVAL_MS, readLastSeen, writeClockMark } from "./clock-mark.js";
import { createArtifactsApi, type ArtifactsApi } from "./artifacts.js";
import { StoreContext, type StoreSettings } from "./context.js";
import { createContinuationsApi, type ContinuationsApi } from "./continuations.js";
import { nodeStoreFs, type StoreFs } from "./fs.js";
import { idGenerator } from "./ids.js";
import { Layout } from "./paths.js";
import { checkDataDir, type Writability } from "./data-dir.js";
import { DataDirInUseError, findLiveHolder, lockDataDir, LOCK_FILE, type DataDirLock } from "./data-lock.js";
import { ContinuationRecordSchema } from "./continuation-schema.js";
import { readRecord } from "./read-record.js";
import { readFormatMarker, refuseNewerFormat, writeFormatMarker, type FormatFound } from "./data-format.js";
import { applyMigration, migrationLine, planMigration, type MigrationPlan } from "./migrations.js";
import { emptyReport } from "./recovery-report.js";
import { FORMAT_VERSION } from "./session-schema.js";
import { recover } from "./recovery.js";
import type { RecoveryReport } from "./recovery-report.js";
import { createSessionsApi, type SessionsApi } from "./sessions.js";
import { createStepsApi, type StepsApi } from "./steps.js";
import { sweep, type SweepReport } from "./sweeper.js";
import { openUsageLedger, USAGE_WRITE_DELAY_MS, type UsageApi } from "./usage-file.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface StoreOptions {
  /** The data directory (`/data`); the store uses its `sessions/`, `artifacts/`, `quarantine/` and `tmp/`. */
  dataDir: string;
  fs?: StoreFs;
  clock?: Clock;
  /**
   * Elapsed time within this run, which a moved wall clock does not change.
   * Default `performance.now()`; a store given only a `clock` (a test's
   * hand-moved one) measures elapsed time on that clock too.
   */
  monotonic?: Monotonic;
  logger?: Logger;
  /** Active sessions idle this long expire. Default 7 days. */
  sessionIdleMs?: number;
  /** Finished continuations are removed this long after they finished. Default 24 h. */
  continuationRetentionMs?: number;
  /** Group commit of step logs. Default every 2000 ms or 5 steps. */
  flush?: { intervalMs: number; everySteps: number };
  /**
   * How long the turns counted since `usage.json` was last written may wait
   * in memory before it is written again (and at close). Default 60 s: a
   * crash loses nothing, as the next start counts every finished turn on disk
   * the file does not name. 0 writes it at every turn.
   */
  usageWrite?: { delayMs: number; schedule?: Schedule };
  /** Largest artifact accepted. Default 8 MiB. */
  artifactMaxBytes?: number;
  /** Step details above this size are moved to an artifact. Default 16 KiB. */
  inlineDetailMaxBytes?: number;
  /** Active sessions one owner may hold. Default 50. */
  maxSessionsPerOwner?: number;
  /** This HA Agent's version, kept in `format.json` so a refusal by an older one can name it. */
  appVersion?: string;
  /** How people set the data directory and the session cap, for messages that name them. */
  settingNames?: { dataDir: string; maxSessions: string };
}

/** Runs `run` once after `ms`; returns a function that cancels it. */
export type Schedule = (ms: number, run: () => void) => () => void;

const unrefTimeout: Schedule = (ms, run) => {
  const timer = setTimeout(run, ms);
  // A pending sweep must not keep a finished process alive.
  timer.unref();
  return () => clearTimeout(timer);
};

export interface Store {
  /** What boot recovery found and fixed. */
  readonly recovery: RecoveryReport;
  /** Undefined while the data directory can be written; otherwise why not, in words for the health report. */
  readonly unwritable: string | undefined;
  readonly sessions: SessionsApi;
  readonly continuations: ContinuationsApi;
  readonly steps: StepsApi;
  readonly artifacts: ArtifactsApi;
  /** Usage per quarter hour over the last 32 days, kept whatever the turns' retention. */
  readonly usage: UsageApi;
  sweep(): Promise<SweepReport>;
  /**
   * Sweeps `firstAfterMs` after it starts (default 1 minute: a program that
   * restarts more often than every 15 minutes must still sweep), then every
   * `intervalMs` (default 15 minutes), until the returned function is called.
   * `schedule` is the timer seam for tests; it returns a cancel function.
   */
  startSweeper(options?: { intervalMs?: number; firstAfterMs?: number; schedule?: Schedule }): () => void;
  /**
   * The latest wall-clock time this data directory had seen when the store
   * opened (its `clock.json` and its records); undefined for a new one.
   * Deadlines carried over a restart count from here when the clock is behind it.
   */
  readonly lastSeenAt: number | undefined;
  /**
   * Renews `clock.json` every `intervalMs` (default 1 minute) and at close,
   * with the wall clock, or the last time seen plus the time elapsed since
   * when the wall clock is behind that. Returns a function that stops it.
   */
  keepClockMark(options?: { intervalMs?: number; schedule?: Schedule }): () => void;
  /** Flushes and fsyncs every pending step log and stops sweepers. */
  close(): Promise<void>;
}

/** Opens the store under `dataDir`, running boot recovery before it resolves. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const fs = options.fs ?? nodeStoreFs;
  const clock = options.clock ?? systemClock;
  const monotonic = options.monotonic ?? (options.clock ? { elapsed: () => clock.now() } : systemMonotonic);
  const logger = options.logger ?? silentLogger;
  const layout = new Layout(options.dataDir);
  const settings: StoreSettings = {
    sessionIdleMs: options.sessionIdleMs ?? 7 * DAY_MS,
    continuationRetentionMs: options.continuationRetentionMs ?? DAY_MS,
    flush: options.flush ?? { intervalMs: 2000, everySteps: 5 },
    artifactMaxBytes: options.artifactMaxBytes ?? 8 * 1024 * 1024,
    inlineDetailMaxBytes: options.inlineDetailMaxBytes ?? 16 * 1024,
    maxSessionsPerOwner: options.maxSessionsPerOwner ?? 50,
    maxSessionsSetting: options.settingNames?.maxSessions ?? "max_sessions_per_principal",
  };

  // Before anything is written, the lock file included: data of a newer HA Agent is refused as it is.
  const found = await readFormatMarker(fs, options.dataDir);
  refuseNewerFormat(options.dataDir, found);
  const plan = await planMigration({ fs, layout, found });
  const setting = options.settingNames?.dataDir ?? "DATA_DIR";
  let writability = await checkDataDir(fs, options.dataDir, setting);
  // A read-only directory in an older format is not read: its records would look damaged to this version.
  const unreadable = !writability.writable && plan !== undefined && plan.older > 0;
  if (!writability.writable && unreadable) {
    writability = { writable: false, reason: `${writability.reason} Its data (format ${plan.from}) must first be migrated to format ${FORMAT_VERSION}, which needs a writable directory; until then no session is read.` };
  }
  if (!writability.writable) logger.error(writability.reason);
  const lock = await takeDataDir({ fs, dataDir: options.dataDir, clock, setting, writable: writability.writable });
  try {
    if (writability.writable) await bringFormatUp({ fs, clock, logger, layout, found, plan, appVersion: options.appVersion });
    return await open({ fs, clock, monotonic, logger, layout, settings, writability, lock, skipRecovery: unreadable, usageWrite: options.usageWrite });
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

/**
 * One process per data directory: a second one's boot recovery would mark
 * the first one's running turns interrupted. A directory that cannot be
 * written holds no lock (none can be made, and nothing is written there),
 * but a live holder named in it still stops the start.
 */
async function takeDataDir(options: { fs: StoreFs; dataDir: string; clock: Clock; setting: string; writable: boolean }): Promise<DataDirLock | undefined> {
  const advice = `Stop it first, or give this one another data directory (${options.setting}).`;
  if (options.writable) return lockDataDir({ ...options, advice });
  const holder = await findLiveHolder(options);
  if (holder) throw new DataDirInUseError(holder, join(options.dataDir, LOCK_FILE), advice);
  return undefined;
}

/**
 * Migrates an older format (one log line), or records this version in
 * `format.json` when another one wrote it last, so a later refusal by an
 * older build can say which version wrote the data.
 */
async function bringFormatUp(options: { fs: StoreFs; clock: Clock; logger: Logger; layout: Layout; found: FormatFound; plan: MigrationPlan | undefined; appVersion: string | undefined }): Promise<void> {
  const { fs, clock, logger, layout, found, plan, appVersion } = options;
  if (plan) {
    const result = await applyMigration({ fs, layout, clock, plan, ...(appVersion ? { appVersion } : {}) });
    const total = result.rewritten.session + result.rewritten.turn + result.rewritten.artifactMeta;
    if (total > 0 || result.resumed || found.kind === "ok") logger.info({ migration: result }, migrationLine(result));
    else logger.debug(`new data directory in data format ${FORMAT_VERSION}`);
    return;
  }
  if (found.kind === "ok" && appVersion && found.marker.writtenBy !== appVersion) {
    await writeFormatMarker({ fs, dataDir: layout.dataDir, tmpDir: layout.tmpDir, marker: { ...found.marker, writtenBy: appVersion, updatedAt: clock.now() } });
  }
}

async function open(options: {
  fs: StoreFs;
  clock: Clock;
  monotonic: Monotonic;
  logger: Logger;
  layout: Layout;
  settings: StoreSettings;
  writability: Writability;
  lock: DataDirLock | undefined;
  skipRecovery: boolean;
  usageWrite: StoreOptions["usageWrite"];
}): Promise<Store> {
  const { fs, clock, monotonic, logger, layout, settings, writability, lock } = options;
  // A read-only directory is only read: recovery reports what it would fix and fixes it once writable again.
  const { report, sessions } = options.skipRecovery ? { report: emptyReport(), sessions: [] } : await recover({ fs, layout, clock, repair: writability.writable, deep: false, maxProblems: 200 });
  logRecovery(logger, report);

  const ctx = new StoreContext(fs, layout, clock, logger, idGenerator(clock), settings, monotonic);
  ctx.unwritable = writability.writable ? undefined : writability.reason;
  for (const { head, unsavedMemory } of sessions) {
    ctx.holdHead(head);
    if (unsavedMemory) ctx.unsavedMemory.set(head.id, unsavedMemory);
    for (const m of head.messages) ctx.contSession.set(m.continuationId, head.id);
  }
  // A turn that waits for a person is still open: its step log takes the answer when it comes.
  for (const waiting of report.awaitingApproval) {
    const read = await readRecord(fs, layout.turnFile(waiting.sessionId, waiting.continuationId), ContinuationRecordSchema);
    if (read.kind === "ok") ctx.openConts.set(waiting.continuationId, read.value);
  }
  const lastSeenAt = await readLastSeen(fs, layout.dataDir, ctx.sessions.values());
  const bootWall = clock.now();
  const bootMono = monotonic.elapsed();
  if (lastSeenAt !== undefined && bootWall < lastSeenAt - CLOCK_JUMP_MS) {
    logger.warn(
      { wall_clock: new Date(bootWall).toISOString(), last_seen: new Date(lastSeenAt).toISOString() },
      `the wall clock is ${Math.round((lastSeenAt - bootWall) / 60_000)} min behind the last time this data directory saw; approvals carried over keep the time they had left, and nothing is swept as old by this clock`,
    );
  }
  /** Now by the wall clock, or by the last time seen plus what elapsed since boot when the wall clock is behind it. */
  const markTime = () => Math.max(clock.now(), (lastSeenAt ?? 0) + (monotonic.elapsed() - bootMono));
  let marking = false;
  // One write at a time, in order: the note written at close is the last one.
  let markWrites: Promise<void> = Promise.resolve();
  // A failing note is said once, when it starts failing, and again once it is written: not every minute.
  let markFailing = false;
  const mark = () =>
    (markWrites = markWrites.then(() =>
      writeClockMark(fs, layout, markTime()).then(
        () => {
          if (markFailing) logger.info("clock.json is renewed again");
          markFailing = false;
        },
        (err: unknown) => {
          if (!markFailing) logger.warn(`clock.json could not be renewed. ${describeError(err)} Until it is, a restart with the wall clock behind counts carried-over approvals from the records' last write.`);
          markFailing = true;
        },
      ),
    ));
  const usage = await openUsageLedger({
    fs,
    layout,
    clock,
    logger,
    report,
    writable: writability.writable,
    retentionMs: settings.continuationRetentionMs,
    sessions: ctx.sessions.values(),
    writeDelayMs: options.usageWrite?.delayMs ?? USAGE_WRITE_DELAY_MS,
    schedule: options.usageWrite?.schedule ?? unrefTimeout,
  });
  ctx.usage = usage;
  const artifacts = createArtifactsApi(ctx);
  const stoppers = new Set<() => void>();
  /**
   * Runs `run` after `firstAfterMs`, then `intervalMs` after each run ends
   * (so a slow run never overlaps the next), until the returned function or
   * close() stops it.
   */
  const repeat = (o: { firstAfterMs: number; intervalMs: number; schedule: Schedule; run: () => Promise<unknown>; stopped?: () => void }): (() => void) => {
    let stopped = false;
    const pass = () =>
      void o.run().finally(() => {
        if (!stopped) cancel = o.schedule(o.intervalMs, pass);
      });
    let cancel = o.schedule(o.firstAfterMs, pass);
    const stop = () => {
      stopped = true;
      cancel();
      o.stopped?.();
      stoppers.delete(stop);
    };
    stoppers.add(stop);
    return stop;
  };
  let sweeping: Promise<SweepReport> | undefined;
  const runSweep = () => {
    // Overlapping sweeps would race on the same files; share the running one.
    sweeping ??= sweep(ctx, artifacts).finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };

  return {
    recovery: report,
    unwritable: ctx.unwritable,
    sessions: createSessionsApi(ctx),
    continuations: createContinuationsApi(ctx),
    steps: createStepsApi(ctx),
    artifacts,
    usage: { slots: (owner) => usage.slots(owner) },
    sweep: runSweep,
    lastSeenAt,
    keepClockMark({ intervalMs = CLOCK_MARK_INTERVAL_MS, schedule = unrefTimeout } = {}) {
      if (ctx.unwritable) return () => {};
      marking = true;
      return repeat({ firstAfterMs: 0, intervalMs, schedule, run: mark, stopped: () => (marking = false) });
    },
    startSweeper({ intervalMs = 15 * 60 * 1000, firstAfterMs = 60 * 1000, schedule = unrefTimeout } = {}) {
      if (ctx.unwritable) return () => {};
      const pass = () =>
        runSweep()
          .then((r) => logger.debug({ ...r }, "sweep done"))
          .catch((err: unknown) => logger.warn(`sweep failed: ${describeError(err)}`));
      return repeat({ firstAfterMs, intervalMs, schedule, run: pass });
    },
    async close() {
      const marked = marking;
      for (const stop of [...stoppers]) stop();
      if (marked) await mark();
      await sweeping?.catch(() => undefined);
      const writers = [...ctx.writers.values()];
      ctx.writers.clear();
      try {
        await Promise.all(writers.map((w) => w.close()));
        await usage.flush();
      } finally {
        await lock?.release();
      }
    },
  };
}

function logRecovery(logger: Logger, report: RecoveryReport): void {
  const { problems, interrupted, awaitingApproval, quarantined, ...counts } = report;
  logger.info(
    { ...counts, interrupted: interrupted.length, awaitingApproval: awaitingApproval.length, quarantined: quarantined.length, problems: problems.length },
    `store recovered ${report.sessions} sessions in ${report.durationMs} ms`,
  );
  for (const problem of problems.slice(0, 20)) logger.warn(`store recovery: ${problem}`);
  if (problems.length > 20) logger.warn(`store recovery: ${problems.length - 20} more findings; run fsck for the full list`);
}
