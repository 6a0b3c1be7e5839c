import { join } from "node:path";
import { ArtifactMetaSchema } from "./artifacts.js";
import { asStorageError } from "./atomic.js";
import { readRecord } from "./read-record.js";
import { isUlid } from "./ids.js";
import { listDir, moveAside } from "./recover-files.js";
import { tightenModes } from "./owner-only.js";
import { recoverSession, type RecoveredSession } from "./recover-session.js";
import { emptyReport, type RecoveryEnv, type RecoveryReport } from "./recovery-report.js";
import { forEachLimited, READS_IN_FLIGHT } from "./limited.js";


/**
 * Boot recovery (and fsck): removes leftover temp files, marks unfinished
 * continuations `interrupted`, cuts torn log tails and quarantines records
 * that do not parse. Never fails for damage; it reports it.
 */
export async function recover(env: RecoveryEnv): Promise<{ report: RecoveryReport; sessions: RecoveredSession[] }> {
  try {
    return await scan(env);
  } catch (err) {
    throw asStorageError(`read the data directory ${env.layout.dataDir}`, err);
  }
}

async function scan(env: RecoveryEnv): Promise<{ report: RecoveryReport; sessions: RecoveredSession[] }> {
  const started = performance.now();
  const { fs, layout } = env;
  const report = emptyReport();
  if (env.repair) {
    for (const dir of [layout.sessionsDir, layout.artifactsDir, layout.quarantineDir, layout.tmpDir]) await fs.mkdir(dir);
  }
  if (env.repair || env.deep) await ownerOnly(env, report);
  for (const name of await listDir(env, layout.tmpDir)) {
    report.tempFilesRemoved += 1;
    if (env.repair) await fs.rm(join(layout.tmpDir, name));
  }
  const sessions: RecoveredSession[] = [];
  const names = await listDir(env, layout.sessionsDir);
  await forEachLimited(names, READS_IN_FLIGHT, async (name) => {
    if (!isUlid(name)) {
      report.problems.push(`sessions/${name} is not named by a session id; it is ignored.`);
      return;
    }
    const session = await recoverSession(env, report, name);
    if (session) sessions.push(session);
  });
  if (env.deep) await checkArtifacts(env, report);
  const max = env.maxProblems ?? Infinity;
  if (report.problems.length > max) {
    const more = report.problems.length - max;
    report.problems = [...report.problems.slice(0, max), `… and ${more} more; run fsck for the full list.`];
  }
  report.sessions = sessions.length;
  report.continuations = sessions.reduce((n, s) => n + s.head.messages.length, 0);
  report.durationMs = Math.round((performance.now() - started) * 10) / 10;
  return { report, sessions };
}

/** Files and folders older versions left readable by others become owner-only (fsck only counts them). */
async function ownerOnly(env: RecoveryEnv, report: RecoveryReport): Promise<void> {
  const modes = await tightenModes({ fs: env.fs, dataDir: env.layout.dataDir, repair: env.repair, deep: env.deep });
  if (modes.loose > 0) {
    report.problems.push(
      env.repair
        ? `${modes.loose} files and folders under the data directory could be read by other users (an older version wrote them so); they are owner-only now.`
        : `${modes.loose} files and folders under the data directory can be read by other users; fsck --repair or the next start makes them owner-only.`,
    );
  }
  if (env.repair) report.modesTightened = modes.loose - modes.problems.length;
  report.problems.push(...modes.problems);
}

/** fsck only: every artifact meta must parse, and every content file needs its meta. */
async function checkArtifacts(env: RecoveryEnv, report: RecoveryReport): Promise<void> {
  const { fs, layout } = env;
  const names = await listDir(env, layout.artifactsDir);
  const metas = new Set(names.filter((n) => n.endsWith(".meta.json")));
  for (const name of names) {
    const path = join(layout.artifactsDir, name);
    if (metas.has(name)) {
      const read = await readRecord(fs, path, ArtifactMetaSchema);
      if (read.kind === "corrupt") await moveAside(env, report, path, read.reason, `artifacts/${name}`);
    } else if (isUlid(name) && !metas.has(`${name}.meta.json`)) {
      report.problems.push(`artifacts/${name} has no .meta.json; the sweeper removes it.`);
    } else if (!isUlid(name)) {
      report.problems.push(`artifacts/${name} is not a file the store writes; it is ignored.`);
    }
  }
}
