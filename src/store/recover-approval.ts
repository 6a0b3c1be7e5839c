import { fsyncDir } from "./atomic.js";
import { dirname } from "node:path";
import { approvalWords, type ContinuationRecord, type PendingApproval } from "./continuation-schema.js";
import { encodeLogLine } from "./log-format.js";
import type { LogFacts } from "./recover-log.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";
import { FinalDetailSchema } from "./step-schema.js";

/** The code a turn ends with when its approval's deadline passed unanswered. */
export const APPROVAL_EXPIRED = "approval_expired";

/** What the turn says when its approval expired while HA Agent was stopped. */
function expiredWhileStopped(approval: PendingApproval): string {
  return `No one answered the approval for ${approvalWords(approval.call)} before it expired at ${new Date(approval.expiresAt).toISOString()} (HA Agent was stopped then); nothing was done and the turn ended. Send the request again to ask anew.`;
}

/**
 * Ends a turn whose approval expired while the program was down: it is
 * never taken up, so no later answer can make it act. Its step log gets the
 * `approval_decision` (`expired`) and the `final` line, fsynced, as a live
 * expiry writes them; the caller then rewrites the turn file, and the
 * session's accounting follows from the `final` line like any finish.
 * Without `repair` (plain fsck, a read-only directory) nothing is written.
 */
export async function expireAtBoot(env: RecoveryEnv, report: RecoveryReport, args: { record: ContinuationRecord & { approval: PendingApproval }; log: LogFacts; path: string; label: string; now: number }): Promise<{ record: ContinuationRecord; log: LogFacts }> {
  const { record, log, now } = args;
  const { approval: pending, ...rest } = record;
  const error = { code: APPROVAL_EXPIRED, message: expiredWhileStopped(pending) };
  const final = FinalDetailSchema.parse({ status: "expired", error, usage: record.usage });
  const key = log.approvalKeys.get(pending.id);
  const decision = { approvalId: pending.id, decision: "expired", at: now };
  const lines = [
    encodeLogLine({ seq: log.lastSeq + 1, ts: now, type: "approval_decision", ...(key ? { key } : {}), detail: decision }),
    encodeLogLine({ seq: log.lastSeq + 2, ts: now, type: "final", detail: final }),
  ].join("");
  if (env.repair) {
    const handle = await env.fs.open(args.path, "a");
    try {
      await handle.writeFile(lines);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (log.lastSeq === 0) await fsyncDir(env.fs, dirname(args.path));
  }
  report.approvalsExpired += 1;
  report.problems.push(`${args.label} waited for approval ${pending.id}, which expired while HA Agent was stopped; ${env.repair ? "the turn ended expired" : "the next start ends the turn expired"} and nothing was done.`);
  return {
    record: { ...rest, status: "expired", updatedAt: now, error },
    log: { ...log, lastSeq: log.lastSeq + 2, final: { ...final, at: now } },
  };
}
