import { join } from "node:path";
import { writeJsonAtomic } from "./atomic.js";
import { isFinalStatus } from "./session-schema.js";
import { isUlid } from "./ids.js";
import { checkLog } from "./recover-log.js";
import { SessionDraft } from "./recover-draft.js";
import { listDir, moveAside } from "./recover-files.js";
import { recoverTurn, type TurnOutcome } from "./recover-turn.js";
import { readRecord } from "./read-record.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";
import { headOf } from "./session-head.js";
import { SessionRecordSchema, isOpenStatus, type SessionHead, type SessionMemory, type SessionRecord } from "./session-schema.js";

/**
 * What boot keeps of a session: its head, and its memory only when that is
 * newer than `session.json` and could not be written (read-only directory).
 */
export interface RecoveredSession {
  head: SessionHead;
  unsavedMemory?: SessionMemory;
}

/**
 * Recovers one session folder. Boot reads `session.json`, lists `turns/` once,
 * and reads the turns listed in `openContinuations` plus those `messages` does
 * not list; deep mode (fsck) checks every turn and log. The full record is
 * dropped once written back: holding every memory would make the boot heap
 * grow with the number of sessions on disk.
 */
export async function recoverSession(env: RecoveryEnv, report: RecoveryReport, sessionId: string): Promise<RecoveredSession | undefined> {
  const stored = await readSessionFile(env, report, sessionId);
  if (!stored) return undefined;
  const draft = new SessionDraft(stored);
  const now = env.clock.now();
  for (const contId of await turnsToCheck(env, report, stored)) {
    const outcome = await recoverTurn(env, report, { sessionId, contId, listedOpen: draft.session.openContinuations.includes(contId), now });
    if (outcome.kind === "dropped") draft.dropRef(contId);
    else await relist({ env, report, draft, outcome });
  }
  const listed = draft.settle();
  if (env.deep) {
    for (const name of await listDir(env, env.layout.logsDir(sessionId))) {
      const id = name.endsWith(".log") ? name.slice(0, -4) : "";
      if (!listed.has(id)) report.problems.push(`sessions/${sessionId}/logs/${name} belongs to no listed continuation; it is kept for inspection.`);
    }
  }
  let session = draft.session;
  if (draft.changed) {
    session = draft.final(now);
    if (env.repair) await writeJsonAtomic({ fs: env.fs, tmpDir: env.layout.tmpDir, path: env.layout.sessionFile(sessionId), value: session });
  }
  return { head: headOf(session), ...(draft.memoryRedone && !env.repair ? { unsavedMemory: session.memory } : {}) };
}

/** `session.json`, when it is whole; a missing or damaged one is reported (and an empty folder removed). */
async function readSessionFile(env: RecoveryEnv, report: RecoveryReport, sessionId: string): Promise<SessionRecord | undefined> {
  const { fs, layout } = env;
  const dir = layout.sessionDir(sessionId);
  const sessionPath = layout.sessionFile(sessionId);
  const read = await readRecord(fs, sessionPath, SessionRecordSchema);
  const leftFiles = async () => [...(await listDir(env, layout.turnsDir(sessionId))), ...(await listDir(env, layout.logsDir(sessionId)))];
  if (read.kind === "missing") {
    const isDir = await fs.stat(dir).then((st) => st.isDirectory(), () => false);
    if (!isDir) {
      report.problems.push(`sessions/${sessionId} is a file, not a session folder; it is ignored.`);
      return undefined;
    }
    const left = await leftFiles();
    if (left.length === 0) {
      report.problems.push(`sessions/${sessionId} is an empty folder left by an interrupted create${env.repair ? "; removed" : ""}.`);
      if (env.repair) await fs.rm(dir);
    } else {
      report.problems.push(`sessions/${sessionId} has no session.json; its ${left.length} file(s) cannot be served. Restore session.json from a backup or remove the folder.`);
    }
    return undefined;
  }
  if (read.kind === "corrupt" || read.value.id !== sessionId) {
    const reason = read.kind === "corrupt" ? read.reason : `its id ${read.value.id} does not match the folder name`;
    await moveAside(env, report, sessionPath, reason, `sessions/${sessionId}/session.json`);
    const left = await leftFiles();
    // Nothing else to keep: drop the folder, so the next check is clean.
    if (env.repair && left.length === 0) await fs.rm(dir);
    return undefined;
  }
  return read.value;
}

/**
 * The turns to read: those listed open, every turn file `messages` does not
 * list (all of them in deep mode), and leftover temp files are removed. One
 * readdir per session, no reads for the turns session.json already knows,
 * but a turn file it does not know (damaged, orphaned or placed by hand) is
 * checked instead of left unseen.
 */
async function turnsToCheck(env: RecoveryEnv, report: RecoveryReport, session: SessionRecord): Promise<Set<string>> {
  const turnsDir = env.layout.turnsDir(session.id);
  const toCheck = new Set(session.openContinuations);
  if (env.deep) for (const m of session.messages) toCheck.add(m.continuationId);
  const knownTurns = new Set(session.messages.map((m) => m.continuationId));
  for (const name of await listDir(env, turnsDir)) {
    const id = name.slice(0, -5);
    if (name.endsWith(".json") && isUlid(id)) {
      if (env.deep || !knownTurns.has(id)) toCheck.add(id);
    } else if (name.endsWith(".tmp")) {
      report.tempFilesRemoved += 1;
      if (env.repair) await env.fs.unlink(join(turnsDir, name));
    } else report.problems.push(`sessions/${session.id}/turns/${name} is not a file the store writes; it is ignored.`);
  }
  return toCheck;
}

/** Brings session.json's view of one read turn up to date: its reference, a lost finish, its key. */
async function relist(options: { env: RecoveryEnv; report: RecoveryReport; draft: SessionDraft; outcome: Extract<TurnOutcome, { kind: "kept" }> }): Promise<void> {
  const { env, report, draft } = options;
  const { record, diskStatus } = options.outcome;
  const contId = record.id;
  const label = `continuation ${contId} of session ${record.sessionId}`;
  const known = draft.session.messages.some((m) => m.continuationId === contId);
  const listed = known || draft.session.openContinuations.includes(contId);
  const ref = draft.session.messages.find((m) => m.continuationId === contId);
  if (isFinalStatus(record.status) && !(ref && isFinalStatus(ref.status)) && (ref || draft.disk.open.has(contId) || record.updatedAt >= draft.disk.updatedAt)) {
    // A finish whose session.json write was lost (it skips the folder fsync): redo its stats and
    // memory. A turn unknown to session.json that finished before session.json's last write was
    // counted already and then swept; its files outlived the sweep, so it is not counted again.
    const log = options.outcome.log ?? (await checkLog(env, report, env.layout.logFile(record.sessionId, contId), label));
    draft.addLostFinish(record, log.final?.memory);
  }
  if (!known && isOpenStatus(diskStatus)) draft.session = { ...draft.session, lastActivityAt: Math.max(draft.session.lastActivityAt, record.createdAt) };
  if (!known && record.request.idempotencyKey !== undefined) draft.adoptKey(record.request.idempotencyKey, contId);
  if (!known || ref?.status !== record.status || (draft.session.openContinuations.includes(contId) && !isOpenStatus(record.status))) draft.setRef(record);
  // Creating a turn does not write session.json, so an unlisted turn that is still open is
  // the normal trace of a stop mid-turn; only an unlisted finished turn is worth a word.
  if (!listed && !isOpenStatus(diskStatus)) report.problems.push(`${label} was not listed in session.json; it was added back.`);
}
