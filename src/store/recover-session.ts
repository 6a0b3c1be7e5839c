import { join } from "node:path";
import { writeJsonAtomic } from "./atomic.js";
import { ContinuationRecordSchema, type ArtifactRef, type ContinuationRecord } from "./continuation-schema.js";
import { errnoOf } from "./errors.js";
import { isUlid } from "./ids.js";
import { parseLog } from "./log-format.js";
import { quarantine } from "./quarantine.js";
import { readRecord } from "./read-record.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";
import { SessionRecordSchema, isOpenStatus, type MessageRef, type SessionRecord } from "./session-schema.js";

async function listDir(env: RecoveryEnv, dir: string): Promise<string[]> {
  try {
    return await env.fs.readdir(dir);
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return [];
    throw err;
  }
}

async function moveAside(env: RecoveryEnv, report: RecoveryReport, path: string, reason: string, what: string): Promise<void> {
  report.problems.push(`${what} is damaged (${reason})${env.repair ? "; moved to quarantine" : "; fsck --repair moves it to quarantine"}.`);
  if (!env.repair) {
    report.quarantined.push({ path: path.slice(env.layout.dataDir.length + 1), reason, movedTo: "" });
    return;
  }
  report.quarantined.push(await quarantine({ fs: env.fs, layout: env.layout, now: env.clock.now(), path, reason }));
}

/** Cuts a torn tail off a log; returns the last intact seq and the artifacts it references. */
async function checkLog(env: RecoveryEnv, report: RecoveryReport, path: string, label: string): Promise<{ lastSeq: number; artifacts: ArtifactRef[] }> {
  let buf: Buffer;
  try {
    buf = await env.fs.readFile(path);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return { lastSeq: 0, artifacts: [] };
    throw err;
  }
  const parsed = parseLog(buf);
  if (parsed.goodBytes < parsed.totalBytes) {
    report.tornLogLines += 1;
    report.problems.push(`The step log of ${label} ends in a torn line${env.repair ? "; it was cut off" : "; fsck --repair cuts it off"}.`);
    if (env.repair) {
      await env.fs.truncate(path, parsed.goodBytes);
      const handle = await env.fs.open(path, "a");
      await handle.sync().finally(() => handle.close());
    }
  }
  if (parsed.damagedInside > 0) {
    report.problems.push(`The step log of ${label} has ${parsed.damagedInside} damaged line(s) before intact ones; they are skipped when read.`);
  }
  const artifacts = parsed.lines.flatMap((l) => (l.artifact ? [l.artifact] : []));
  return { lastSeq: parsed.lines.at(-1)?.seq ?? 0, artifacts };
}

function refOf(record: ContinuationRecord): MessageRef {
  return { continuationId: record.id, status: record.status, createdAt: record.createdAt, updatedAt: record.updatedAt, preview: record.request.message.slice(0, 80) };
}

/**
 * Recovers one session folder. Boot reads only `session.json` and the turns
 * listed in `openContinuations`; deep mode (fsck) checks every file.
 */
export async function recoverSession(env: RecoveryEnv, report: RecoveryReport, sessionId: string): Promise<SessionRecord | undefined> {
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
    if (isOpenStatus(record.status) || env.deep) {
      const log = await checkLog(env, report, layout.logFile(sessionId, contId), label);
      if (isOpenStatus(record.status)) {
        const artifacts = [...record.artifacts, ...log.artifacts.filter((a) => !record.artifacts.some((b) => b.id === a.id))];
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
        if (env.repair) await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path: turnPath, value: record });
      }
    }
    const ref = session.messages.find((m) => m.continuationId === contId);
    if (!known || ref?.status !== record.status || (session.openContinuations.includes(contId) && !isOpenStatus(record.status))) setRef(record);
    if (!listed) report.problems.push(`${label} was not listed in session.json; it was added back.`);
  }
  // Keys must point at continuations the session still lists.
  const listed = new Set(session.messages.map((m) => m.continuationId));
  if (session.idempotencyKeys.some((k) => !listed.has(k.continuationId))) {
    session = { ...session, idempotencyKeys: session.idempotencyKeys.filter((k) => listed.has(k.continuationId)) };
    changed = true;
  }
  if (env.deep) {
    for (const name of await listDir(env, layout.logsDir(sessionId))) {
      const id = name.endsWith(".log") ? name.slice(0, -4) : "";
      if (!listed.has(id)) report.problems.push(`sessions/${sessionId}/logs/${name} belongs to no listed continuation; it is kept for inspection.`);
    }
  }
  if (changed) {
    session = { ...session, version: session.version + 1, updatedAt: now };
    if (env.repair) await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path: sessionPath, value: session });
  }
  return session;
}
