import { join, relative } from "node:path";
import { writeJsonAtomic } from "./atomic.js";
import { ContinuationRecordSchema, type ContinuationRecord } from "./continuation-schema.js";
import { errnoOf } from "./errors.js";
import { isFinalStatus } from "./continuations.js";
import { isUlid } from "./ids.js";
import { checkLog, type LogFacts } from "./recover-log.js";
import { quarantine } from "./quarantine.js";
import { readRecord } from "./read-record.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";
import { headOf } from "./session-head.js";
import { SessionRecordSchema, isOpenStatus, type MessageRef, type SessionHead, type SessionMemory } from "./session-schema.js";
import { addUsage } from "./stats.js";

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

function refOf(record: ContinuationRecord): MessageRef {
  return { continuationId: record.id, status: record.status, createdAt: record.createdAt, updatedAt: record.updatedAt, preview: record.request.message.slice(0, 80) };
}

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
  const { fs, layout } = env;
  const dir = layout.sessionDir(sessionId);
  const sessionPath = layout.sessionFile(sessionId);
  const read = await readRecord(fs, sessionPath, SessionRecordSchema);
  if (read.kind === "missing") {
    const isDir = await fs.stat(dir).then((st) => st.isDirectory(), () => false);
    if (!isDir) {
      report.problems.push(`sessions/${sessionId} is a file, not a session folder; it is ignored.`);
      return undefined;
    }
    const left = [...(await listDir(env, layout.turnsDir(sessionId))), ...(await listDir(env, layout.logsDir(sessionId)))];
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
    const left = [...(await listDir(env, layout.turnsDir(sessionId))), ...(await listDir(env, layout.logsDir(sessionId)))];
    // Nothing else to keep: drop the folder, so the next check is clean.
    if (env.repair && left.length === 0) await fs.rm(dir);
    return undefined;
  }
  let session = read.value;
  let changed = false;
  let memoryRedone = false;
  const now = env.clock.now();
  const dropRef = (contId: string) => {
    session = {
      ...session,
      openContinuations: session.openContinuations.filter((id) => id !== contId),
      messages: session.messages.filter((m) => m.continuationId !== contId),
      idempotencyKeys: session.idempotencyKeys.filter((k) => k.continuationId !== contId),
    };
    changed = true;
  };
  const setRef = (record: ContinuationRecord) => {
    const ref = refOf(record);
    const has = session.messages.some((m) => m.continuationId === record.id);
    const messages = has ? session.messages.map((m) => (m.continuationId === record.id ? { ...ref, preview: m.preview } : m)) : [...session.messages, ref];
    session = { ...session, messages, openContinuations: session.openContinuations.filter((id) => id !== record.id || isOpenStatus(record.status)) };
    changed = true;
  };

  const diskOpen = new Set(session.openContinuations);
  const adoptedKeys: Array<{ key: string; continuationId: string }> = [];
  const lostFinishes: Array<{ record: ContinuationRecord; memory: SessionMemory | undefined }> = [];
  const redoFinishes = () => {
    let stats = session.stats;
    for (const { record } of lostFinishes) stats = addUsage(stats, record.usage);
    const withMemory = lostFinishes
      .filter((f) => f.memory !== undefined)
      .sort((a, b) => a.record.updatedAt - b.record.updatedAt || (a.record.id < b.record.id ? -1 : 1));
    const memory = withMemory.at(-1)?.memory;
    const lastActivityAt = Math.max(session.lastActivityAt, ...lostFinishes.map((f) => f.record.updatedAt));
    session = { ...session, stats, lastActivityAt, ...(memory ? { memory } : {}) };
    changed = true;
    memoryRedone ||= memory !== undefined;
  };

  const toCheck = new Set(session.openContinuations);
  if (env.deep) for (const m of session.messages) toCheck.add(m.continuationId);
  // Boot lists turns/ as well: one readdir per session, no reads for the
  // turns session.json already knows, but a turn file it does not know
  // (damaged, orphaned or placed by hand) is checked instead of left unseen.
  const knownTurns = new Set(session.messages.map((m) => m.continuationId));
  for (const name of await listDir(env, layout.turnsDir(sessionId))) {
    const id = name.slice(0, -5);
    if (name.endsWith(".json") && isUlid(id)) {
      if (env.deep || !knownTurns.has(id)) toCheck.add(id);
    } else if (name.endsWith(".tmp")) {
      report.tempFilesRemoved += 1;
      if (env.repair) await fs.unlink(join(layout.turnsDir(sessionId), name));
    } else report.problems.push(`sessions/${sessionId}/turns/${name} is not a file the store writes; it is ignored.`);
  }

  for (const contId of toCheck) {
    const label = `continuation ${contId} of session ${sessionId}`;
    if (!isUlid(contId)) {
      report.problems.push(`session ${sessionId} refers to "${contId}", which is not a continuation id; the reference is dropped.`);
      dropRef(contId);
      continue;
    }
    const turnPath = layout.turnFile(sessionId, contId);
    const turn = await readRecord(fs, turnPath, ContinuationRecordSchema);
    if (turn.kind === "missing") {
      const wasOpen = session.openContinuations.includes(contId);
      report.problems.push(
        wasOpen ? `${label} was being created when the add-on stopped; it never started and was dropped.` : `${label} is listed but its file is missing; the reference is dropped.`,
      );
      dropRef(contId);
      continue;
    }
    if (turn.kind === "corrupt" || turn.value.id !== contId || turn.value.sessionId !== sessionId) {
      const reason = turn.kind === "corrupt" ? turn.reason : "its id or sessionId does not match where it is stored";
      await moveAside(env, report, turnPath, reason, `sessions/${sessionId}/turns/${contId}.json`);
      dropRef(contId);
      continue;
    }
    let record = turn.value;
    const known = session.messages.some((m) => m.continuationId === contId);
    const listed = known || session.openContinuations.includes(contId);
    let log: LogFacts | undefined;
    if (isOpenStatus(record.status) || env.deep) {
      log = await checkLog(env, report, layout.logFile(sessionId, contId), label);
      if (isOpenStatus(record.status)) {
        const artifacts = [...record.artifacts, ...log.artifacts.filter((a) => !record.artifacts.some((b) => b.id === a.id))];
        const final = log.final;
        if (final) {
          // The finish got as far as its final line; the turn file (and session.json) were not rewritten yet.
          const { status, response, error, usage } = final;
          record = { ...record, status, updatedAt: final.at, artifacts, usage, ...(response ? { response } : {}), ...(error ? { error } : {}) };
          report.finishedFromLog += 1;
          report.problems.push(`${label} had finished (${status}) but its record was not rewritten; it was restored from its step log.`);
        } else {
          record = {
            ...record,
            status: "interrupted",
            updatedAt: now,
            artifacts,
            interrupted: {
              reason: `HA Agent stopped while this continuation was ${record.status}; resume or retry it.`,
              at: now,
              previousStatus: record.status,
              lastDurableSeq: log.lastSeq,
            },
          };
          report.interrupted.push({ sessionId, continuationId: contId, previousStatus: turn.value.status, lastDurableSeq: log.lastSeq });
        }
        if (env.repair) await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path: turnPath, value: record });
      }
    }
    const ref = session.messages.find((m) => m.continuationId === contId);
    if (isFinalStatus(record.status) && !(ref && isFinalStatus(ref.status)) && (ref || diskOpen.has(contId) || record.updatedAt >= read.value.updatedAt)) {
      // A finish whose session.json write was lost (it skips the folder fsync): redo its stats and
      // memory. A turn unknown to session.json that finished before session.json's last write was
      // counted already and then swept; its files outlived the sweep, so it is not counted again.
      log ??= await checkLog(env, report, layout.logFile(sessionId, contId), label);
      lostFinishes.push({ record, memory: log.final?.memory });
    }
    if (!known && isOpenStatus(turn.value.status)) session = { ...session, lastActivityAt: Math.max(session.lastActivityAt, record.createdAt) };
    if (!known && record.request.idempotencyKey !== undefined) adoptedKeys.push({ key: record.request.idempotencyKey, continuationId: contId });
    if (!known || ref?.status !== record.status || (session.openContinuations.includes(contId) && !isOpenStatus(record.status))) setRef(record);
    // Creating a turn does not write session.json, so an unlisted turn that is still open is
    // the normal trace of a stop mid-turn; only an unlisted finished turn is worth a word.
    if (!listed && !isOpenStatus(turn.value.status)) report.problems.push(`${label} was not listed in session.json; it was added back.`);
  }
  if (lostFinishes.length > 0) redoFinishes();
  // Keys must point at continuations the session still lists.
  const listed = new Set(session.messages.map((m) => m.continuationId));
  if (session.idempotencyKeys.some((k) => !listed.has(k.continuationId))) {
    session = { ...session, idempotencyKeys: session.idempotencyKeys.filter((k) => listed.has(k.continuationId)) };
    changed = true;
  }
  // An adopted turn brings its key back (creating a turn does not write session.json). When the
  // key leads to another turn too, the later turn wins: create gives a used key to a new turn
  // only when the first one can no longer be read, and ULIDs sort by creation time.
  for (const entry of adoptedKeys.sort((a, b) => (a.continuationId < b.continuationId ? -1 : 1))) {
    const other = session.idempotencyKeys.find((k) => k.key === entry.key);
    if (listed.has(entry.continuationId) && (!other || other.continuationId < entry.continuationId)) {
      session = { ...session, idempotencyKeys: [...session.idempotencyKeys.filter((k) => k.key !== entry.key), entry] };
      changed = true;
    }
  }
  if (env.deep) {
    for (const name of await listDir(env, layout.logsDir(sessionId))) {
      const id = name.endsWith(".log") ? name.slice(0, -4) : "";
      if (!listed.has(id)) report.problems.push(`sessions/${sessionId}/logs/${name} belongs to no listed continuation; it is kept for inspection.`);
    }
  }
  if (changed) {
    // Every lost session.json write was a finish (all other writes fsync the folder) and each is
    // redone above, so this version is above any the callers were shown before the power cut.
    session = { ...session, version: session.version + 1 + lostFinishes.length, updatedAt: now };
    if (env.repair) await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path: sessionPath, value: session });
  }
  return { head: headOf(session), ...(memoryRedone && !env.repair ? { unsavedMemory: session.memory } : {}) };
}
