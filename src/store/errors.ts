import { HaAgentError } from "../shared/index.js";

/** An id that is not a ULID; refused before it can become part of a path. */
export class InvalidIdError extends HaAgentError {
  constructor(kind: string, id: string) {
    super("invalid_id", `"${id.slice(0, 40)}" is not a valid ${kind} id; ids are 26-character ULIDs as returned when the ${kind} was created.`);
  }
}

/** Unknown record, or one that belongs to another principal (reported the same way on purpose). */
export class NotFoundError extends HaAgentError {
  constructor(kind: "session" | "continuation" | "artifact", id: string) {
    super("not_found", `No ${kind} "${id}" exists for you. Check the id, or start a new session with ha_agent_start_session.`);
  }
}

/** A write based on an old version of a session; the caller must re-read and retry. */
export class StaleWriteError extends HaAgentError {
  constructor(id: string, expected: number, actual: number) {
    super(
      "stale_write",
      `Session ${id} is at version ${actual}, but the write was based on version ${expected}; re-read the session and apply the change again.`,
    );
  }
}

/** The session is ended or expired and takes no more work. */
export class SessionClosedError extends HaAgentError {
  constructor(id: string, status: "ended" | "expired") {
    super(
      status === "ended" ? "session_ended" : "session_expired",
      `Session ${id} is ${status} and takes no more messages; start a new session with ha_agent_start_session.`,
    );
  }
}

/** The continuation already reached a final status, which never changes again. */
export class ContinuationFinalError extends HaAgentError {
  constructor(id: string, status: string) {
    super("already_final", `Continuation ${id} is already ${status}; a final status never changes. Send a new message or retry instead.`);
  }
}

/** The session has as many open continuations as its policy allows. */
export class TooManyOpenError extends HaAgentError {
  constructor(id: string, limit: number) {
    super("busy", `Session ${id} already has ${limit} open continuation(s); await or cancel it before sending another message.`);
  }
}

/** An artifact larger than the configured cap. */
export class ArtifactTooLargeError extends HaAgentError {
  constructor(bytes: number, limit: number) {
    super("artifact_too_large", `The artifact is ${bytes} bytes, above the ${limit}-byte cap; summarise or split the output before storing it.`);
  }
}

const ADVICE: Record<string, string> = {
  ENOSPC: "the disk is full; free space on the SD card or disk that holds /data, then try again",
  EDQUOT: "the disk quota is used up; free space on the disk that holds /data, then try again",
  EACCES: "permission was denied; check that the add-on may write to /data (file owner and mode)",
  EPERM: "the operation is not permitted; check the owner and mode of the files in /data",
  EROFS: "the file system is read-only; check the SD card or disk for errors and remount it read-write",
  EIO: "the disk reported an I/O error; check the SD card or disk for damage",
};

/** A disk failure. Previous files are left intact; the message says what to do. */
export class StorageError extends HaAgentError {
  readonly errno: string | undefined;

  constructor(action: string, errno: string | undefined, cause: unknown) {
    const advice = (errno && ADVICE[errno]) ?? "check the disk that holds /data";
    super("storage_error", `Could not ${action}: ${advice}. Nothing already stored was changed.`, { cause });
    this.errno = errno;
  }
}

/** Errno codes that mean "the disk refused", as opposed to a programming fault. */
export function isDiskError(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && code in ADVICE;
}

export function errnoOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
