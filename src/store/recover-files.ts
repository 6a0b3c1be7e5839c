import { relative } from "node:path";
import { errnoOf } from "./errors.js";
import { quarantine } from "./quarantine.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";

/** The names in `dir`; none when it does not exist (or is not a folder). */
export async function listDir(env: RecoveryEnv, dir: string): Promise<string[]> {
  try {
    return await env.fs.readdir(dir);
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return [];
    throw err;
  }
}

/** Reports a damaged file and, when repairing, moves it to quarantine. */
export async function moveAside(env: RecoveryEnv, report: RecoveryReport, path: string, reason: string, what: string): Promise<void> {
  report.problems.push(`${what} is damaged (${reason})${env.repair ? "; moved to quarantine" : "; fsck --repair moves it to quarantine"}.`);
  if (!env.repair) {
    report.quarantined.push({ path: relative(env.layout.dataDir, path), reason, movedTo: "" });
    return;
  }
  report.quarantined.push(await quarantine({ fs: env.fs, layout: env.layout, now: env.clock.now(), path, reason }));
}
