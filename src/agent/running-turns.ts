import type { ContinuationRecord } from "../store/index.js";
import type { StreamedText } from "./execute-continuation.js";

/** A turn this run is working on, or ending: while it is listed, nothing else takes it up. */
export interface Running {
  sessionId: string;
  cancel: AbortController;
  /** Aborted when a shutdown's deadline passes: the turn stops mid-step and stays resumable. */
  interrupt: AbortController;
  done: Promise<ContinuationRecord>;
  streamed?: StreamedText;
}

/** The turns under way, by continuation id; shared by the runtime and the collaborators that start and end turns. */
export type RunningTurns = Map<string, Running>;

/** How long an answer or an expiry waits for the running turn to journal it before the caller gets the turn as it is. */
export const ANSWER_TAKEN_MS = 10_000;

/** `promise`, or undefined once `ms` have passed first; the timer is cleared either way. */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
