import { writeJsonAtomic } from "./atomic.js";
import { approvalExpired, ContinuationRecordSchema, type ContinuationRecord } from "./continuation-schema.js";
import { expireAtBoot } from "./recover-approval.js";
import { isUlid } from "./ids.js";
import { checkLog, type LogFacts } from "./recover-log.js";
import { moveAside } from "./recover-files.js";
import { readRecord } from "./read-record.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";
import { isOpenStatus, type ContinuationStatus } from "./session-schema.js";

/** A turn boot recovery read: dropped (missing or damaged), or its record as it stands now. */
export type TurnOutcome =
  | { kind: "dropped" }
  | {
      kind: "kept";
      record: ContinuationRecord;
      /** The status its file had before recovery. */
      diskStatus: ContinuationStatus;
      /** Its step log, when recovery had to read it. */
      log: LogFacts | undefined;
    };

export interface TurnToRecover {
  sessionId: string;
  contId: string;
  /** session.json lists it as open: a missing file is then a create cut short. */
  listedOpen: boolean;
  /** The time recovery stamps on what it changes. */
  now: number;
}

/**
 * Reads one turn file and settles it: a damaged or missing file is dropped
 * (and quarantined), an unfinished turn takes the result of its log's final
 * line or becomes `interrupted`, and its file is rewritten.
 */
export async function recoverTurn(env: RecoveryEnv, report: RecoveryReport, turn: TurnToRecover): Promise<TurnOutcome> {
  const { sessionId, contId } = turn;
  const label = `continuation ${contId} of session ${sessionId}`;
  if (!isUlid(contId)) {
    report.problems.push(`session ${sessionId} refers to "${contId}", which is not a continuation id; the reference is dropped.`);
    return { kind: "dropped" };
  }
  const turnPath = env.layout.turnFile(sessionId, contId);
  const read = await readRecord(env.fs, turnPath, ContinuationRecordSchema);
  if (read.kind === "missing") {
    report.problems.push(
      turn.listedOpen ? `${label} was being created when the add-on stopped; it never started and was dropped.` : `${label} is listed but its file is missing; the reference is dropped.`,
    );
    return { kind: "dropped" };
  }
  if (read.kind === "corrupt" || read.value.id !== contId || read.value.sessionId !== sessionId) {
    const reason = read.kind === "corrupt" ? read.reason : "its id or sessionId does not match where it is stored";
    await moveAside(env, report, turnPath, reason, `sessions/${sessionId}/turns/${contId}.json`);
    return { kind: "dropped" };
  }
  const diskStatus = read.value.status;
  if (!isOpenStatus(diskStatus) && !env.deep) return { kind: "kept", record: read.value, diskStatus, log: undefined };
  const logPath = env.layout.logFile(sessionId, contId);
  let log = await checkLog(env, report, logPath, label);
  if (!isOpenStatus(diskStatus)) return { kind: "kept", record: read.value, diskStatus, log };
  let record: ContinuationRecord;
  const approval = !log.final && diskStatus === "input_required" ? read.value.approval : undefined;
  if (approval && approvalExpired(approval, turn.now)) {
    // Its deadline passed while the program was down: it ends here, before anything could take it up.
    ({ record, log } = await expireAtBoot(env, report, { record: { ...read.value, approval, artifacts: withLogArtifacts(read.value, log) }, log, path: logPath, label, now: turn.now }));
  } else {
    record = settleOpenTurn({ report, record: read.value, log, label, now: turn.now });
  }
  if (env.repair) await writeJsonAtomic({ fs: env.fs, tmpDir: env.layout.tmpDir, path: turnPath, value: record });
  return { kind: "kept", record, diskStatus, log };
}

/** The status of a turn that was open when the process stopped: its log's result, or `interrupted`. */
function settleOpenTurn(options: { report: RecoveryReport; record: ContinuationRecord; log: LogFacts; label: string; now: number }): ContinuationRecord {
  const { report, record, log, label, now } = options;
  const artifacts = withLogArtifacts(record, log);
  const final = log.final;
  if (final) {
    // The finish got as far as its final line; the turn file (and session.json) were not rewritten yet.
    const { status, response, error, usage } = final;
    report.finishedFromLog += 1;
    report.problems.push(`${label} had finished (${status}) but its record was not rewritten; it was restored from its step log.`);
    return { ...record, status, updatedAt: final.at, artifacts, usage, ...(response ? { response } : {}), ...(error ? { error } : {}) };
  }
  if (record.status === "input_required" && record.approval) {
    // Still waiting for a person: a restart must not turn that into an interruption.
    report.awaitingApproval.push({ owner: record.owner, sessionId: record.sessionId, continuationId: record.id });
    return { ...record, artifacts };
  }
  report.interrupted.push({ sessionId: record.sessionId, continuationId: record.id, previousStatus: record.status, lastDurableSeq: log.lastSeq });
  return {
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
}

/** The turn's artifact references and those its step log adds. */
function withLogArtifacts(record: ContinuationRecord, log: LogFacts): ContinuationRecord["artifacts"] {
  return [...record.artifacts, ...log.artifacts.filter((a) => !record.artifacts.some((b) => b.id === a.id))];
}
