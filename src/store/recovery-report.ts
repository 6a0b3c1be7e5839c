import type { Clock } from "../shared/index.js";
import type { StoreFs } from "./fs.js";
import type { Layout } from "./paths.js";
import type { QuarantineEntry } from "./quarantine.js";
import type { ContinuationStatus } from "./session-schema.js";

export interface InterruptedEntry {
  sessionId: string;
  continuationId: string;
  previousStatus: ContinuationStatus;
  lastDurableSeq: number;
}

/** What boot recovery (or fsck) found and fixed; shown by `/healthz`. */
export interface RecoveryReport {
  durationMs: number;
  sessions: number;
  continuations: number;
  interrupted: InterruptedEntry[];
  /** Turns that wait for a person's yes: they go on waiting, and the agent takes them up again at start. */
  awaitingApproval: { owner: string; sessionId: string; continuationId: string }[];
  /** Turns whose approval expired while the program was down: they ended `expired` here, never taken up. */
  approvalsExpired: number;
  quarantined: QuarantineEntry[];
  /** Open turns whose step log ends in a `final` line: they took that result instead of `interrupted`. */
  finishedFromLog: number;
  /** Torn last lines cut from step logs. */
  tornLogLines: number;
  tempFilesRemoved: number;
  /** Files and folders made owner-only (0600, 0700) that an older version had left readable by others. */
  modesTightened: number;
  /** Every finding in plain words, fixed or not. */
  problems: string[];
}

export interface RecoveryEnv {
  fs: StoreFs;
  layout: Layout;
  clock: Clock;
  /** Apply fixes (boot, `fsck --repair`); false only reports (plain `fsck`). */
  repair: boolean;
  /** Check every turn, log and artifact (fsck), not only what boot needs. */
  deep: boolean;
  /** Keep at most this many problem lines (boot keeps /healthz small); default all. */
  maxProblems?: number;
}

export function emptyReport(): RecoveryReport {
  return { durationMs: 0, sessions: 0, continuations: 0, interrupted: [], awaitingApproval: [], approvalsExpired: 0, quarantined: [], finishedFromLog: 0, tornLogLines: 0, tempFilesRemoved: 0, modesTightened: 0, problems: [] };
}
