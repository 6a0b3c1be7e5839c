import { join } from "node:path";
import { systemClock } from "../shared/index.js";
import { DataDirInUseError, findLiveHolder, lockDataDir, LOCK_FILE, type DataDirLock } from "./data-lock.js";
import { isDiskError } from "./errors.js";
import { nodeStoreFs, type StoreFs } from "./fs.js";
import { readFormatMarker, refuseNewerFormat } from "./data-format.js";
import { applyMigration, migrationLine, planMigration } from "./migrations.js";
import { Layout } from "./paths.js";
import { recover } from "./recovery.js";
import { emptyReport, type RecoveryReport } from "./recovery-report.js";
import { FORMAT_VERSION } from "./session-schema.js";

export interface FsckResult {
  report: RecoveryReport;
  /** Plain-words findings: the report's problems plus unfinished work and temp files. */
  findings: string[];
}

function findingsOf(report: RecoveryReport, repair: boolean): string[] {
  const out = [...report.problems].sort();
  for (const i of report.interrupted) {
    out.push(
      `continuation ${i.continuationId} of session ${i.sessionId} was left ${i.previousStatus}` +
        (repair ? "; it is now interrupted and can be resumed or retried." : "; fsck --repair marks it interrupted (only run it while HA Agent is stopped)."),
    );
  }
  if (report.tempFilesRemoved > 0) {
    out.push(`${report.tempFilesRemoved} leftover temp file(s) from interrupted writes${repair ? " were removed" : "; fsck --repair removes them"}.`);
  }
  return out;
}

const ADVICE = "Stop HA Agent before running fsck.";

/**
 * fsck holds the data directory like HA Agent does, so neither runs while the
 * other writes. Check-only on a directory that cannot be written takes no
 * lock, but still refuses while a live holder is named in it.
 */
async function takeForFsck(fs: StoreFs, dataDir: string): Promise<DataDirLock | undefined> {
  try {
    return await lockDataDir({ fs, dataDir, clock: systemClock, advice: ADVICE });
  } catch (err) {
    if (!isDiskError(err)) throw err;
    const holder = await findLiveHolder({ fs, dataDir });
    if (holder) throw new DataDirInUseError(holder, join(dataDir, LOCK_FILE), ADVICE);
    return undefined;
  }
}

/**
 * Checks every file of a data dir; with `repair`, migrates an older data
 * format and applies the fixes boot recovery applies. A DataDirInUseError
 * while HA Agent runs on it; a FormatTooNewError, before anything is
 * written, for data of a newer HA Agent.
 */
export async function runFsck(options: { dataDir: string; repair: boolean; fs?: StoreFs; appVersion?: string }): Promise<FsckResult> {
  const fs = options.fs ?? nodeStoreFs;
  const layout = new Layout(options.dataDir);
  const found = await readFormatMarker(fs, options.dataDir);
  refuseNewerFormat(options.dataDir, found);
  const plan = await planMigration({ fs, layout, found });
  const older = plan?.older ?? 0;
  const lock = await takeForFsck(fs, options.dataDir);
  try {
    const migrated: string[] = [];
    if (plan && options.repair) {
      migrated.push(`${migrationLine(await applyMigration({ fs, layout, clock: systemClock, plan, ...(options.appVersion ? { appVersion: options.appVersion } : {}) }))}.`);
    } else if (plan && older > 0) {
      // Records of an older format would all look damaged to this version's checks.
      const report = emptyReport();
      return { report, findings: [`The data is in format ${plan.from} (${older} records); the next start of HA Agent, or fsck --repair, migrates it to format ${FORMAT_VERSION}. Nothing else was checked.`] };
    }
    const { report } = await recover({ fs, layout, clock: systemClock, repair: options.repair, deep: true });
    return { report, findings: [...migrated, ...findingsOf(report, options.repair)] };
  } finally {
    await lock?.release();
  }
}
