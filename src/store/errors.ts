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

// The messages reach MCP callers: they name HA Agent's data directory, never a path in it.
const ADVICE = new Map<string, string>([
  ["ENOSPC", "the disk is full; free space on the disk that holds HA Agent's data directory, then try again"],
  ["EDQUOT", "the disk quota is used up; free space on the disk that holds HA Agent's data directory, then try again"],
  ["EACCES", "permission was denied; check that HA Agent may write to its data directory (file owner and mode)"],
  ["EPERM", "the operation is not permitted; check the owner and mode of the files in HA Agent's data directory"],
  ["EROFS", "the file system is read-only; check the disk for errors and remount it read-write"],
  ["EIO", "the disk reported an I/O error; check the disk for damage"],
  ["ENOENT", "a folder of HA Agent's data directory is missing and cannot be created; check that the data directory exists and can be written"],
  ["ENOTDIR", "a file stands where HA Agent's data directory needs a folder; move it away"],
]);

/** A disk failure. Previous files are left intact; the message says what to do. */
export class StorageError extends HaAgentError {
  readonly errno: string | undefined;

  constructor(action: string, errno: string | undefined, cause: unknown) {
    const advice = (errno && ADVICE.get(errno)) ?? "check the disk that holds HA Agent's data directory";
    super("storage_error", `Could not ${action}: ${advice}. Nothing already stored was changed.`, { cause });
    this.errno = errno;
  }
}

/** Errno codes that mean "the disk refused", as opposed to a programming fault. */
export function isDiskError(err: unknown): err is NodeJS.ErrnoException {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && ADVICE.has(code);
}

export function errnoOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The data directory cannot be written right now; reads still work. */
export class StoreUnavailableError extends HaAgentError {
  constructor(reason: string) {
    super("store_unavailable", reason);
  }
}

/** An owner already holds the most active sessions allowed. */
export class TooManySessionsError extends HaAgentError {
  constructor(limit: number, setting: string) {
    super(
      "too_many_sessions",
      `You already have ${limit} active sessions, the most allowed. End sessions you no longer need with ha_agent_end_session (ha_agent_list_sessions shows them), or ask the add-on owner to raise ${setting}.`,
    );
  }
}
