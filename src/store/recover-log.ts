import type { ArtifactRef } from "./continuation-schema.js";
import { errnoOf } from "./errors.js";
import { parseLog } from "./log-format.js";
import type { RecoveryEnv, RecoveryReport } from "./recovery-report.js";
import { FinalDetailSchema, type FinalDetail } from "./step-schema.js";

export interface LogFacts {
  /** `seq` of the last intact line; 0 when there is none. */
  lastSeq: number;
  artifacts: ArtifactRef[];
  /** The result, when the last intact line is a valid `final` line. */
  final?: FinalDetail & { at: number };
  /** The `key` of each `approval_request` line, by approval id: a decision written by recovery carries the same key. */
  approvalKeys: Map<string, string>;
}

/** Reads a step log for recovery: cuts a torn tail (when repairing) and finds its `final` line. */
export async function checkLog(env: RecoveryEnv, report: RecoveryReport, path: string, label: string): Promise<LogFacts> {
  let buf: Buffer;
  try {
    buf = await env.fs.readFile(path);
  } catch (err) {
    if (errnoOf(err) === "ENOENT") return { lastSeq: 0, artifacts: [], approvalKeys: new Map() };
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
  const approvalKeys = new Map<string, string>();
  for (const line of parsed.lines) {
    const id = line.type === "approval_request" ? (line.detail as { id?: unknown } | null)?.id : undefined;
    if (typeof id === "string" && line.key !== undefined) approvalKeys.set(id, line.key);
  }
  const last = parsed.lines.at(-1);
  const facts: LogFacts = { lastSeq: last?.seq ?? 0, artifacts, approvalKeys };
  // Only a final line that ends the log counts: steps after it mean the turn went on
  // (its finish failed and was retried), so that line is not the turn's result.
  if (last?.type === "final") {
    const detail = FinalDetailSchema.safeParse(last.detail);
    if (detail.success) facts.final = { ...detail.data, at: last.ts };
    else report.problems.push(`The final line of ${label}'s step log does not match its format; it is ignored.`);
  }
  return facts;
}
