import { systemClock } from "../shared/index.js";
import { nodeStoreFs, type StoreFs } from "./fs.js";
import { Layout } from "./paths.js";
import { recover } from "./recovery.js";
import type { RecoveryReport } from "./recovery-report.js";

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

/** Checks every file of a data dir; with `repair`, applies the fixes boot recovery applies. */
export async function runFsck(options: { dataDir: string; repair: boolean; fs?: StoreFs }): Promise<FsckResult> {
  const { report } = await recover({
    fs: options.fs ?? nodeStoreFs,
    layout: new Layout(options.dataDir),
    clock: systemClock,
    repair: options.repair,
    deep: true,
  });
  return { report, findings: findingsOf(report, options.repair) };
}
