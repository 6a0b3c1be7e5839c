import { describeError, type Clock, type Logger } from "../shared/index.js";
import { writeJsonAtomic } from "./atomic.js";
import type { ArtifactRef, ContinuationRecord } from "./continuation-schema.js";
import { NotFoundError, StaleWriteError, errnoOf, StoreUnavailableError } from "./errors.js";
import type { StoreFs } from "./fs.js";
import { isUlid } from "./ids.js";
import { KeyedLock } from "./keyed-lock.js";
import type { Layout } from "./paths.js";
import { redactSecrets } from "./redact.js";
import type { SessionRecord } from "./session-schema.js";
import type { GroupCommit, StepLogWriter } from "./step-log.js";

export interface StoreSettings {
  sessionIdleMs: number;
  continuationRetentionMs: number;
  flush: GroupCommit;
  artifactMaxBytes: number;
  /** Step details larger than this go to an artifact, with a reference in the log line. */
  inlineDetailMaxBytes: number;
  /** Active sessions one owner may hold. */
  maxSessionsPerOwner: number;
  /** The option that sets it, for the message that names it. */
  maxSessionsSetting: string;
}

/**
 * The store's shared internals. Session records are all held in memory (they
 * are small and `list` needs them); continuation records only while open.
 */
export class StoreContext {
  readonly sessions = new Map<string, SessionRecord>();
  /** continuationId → sessionId, for every continuation a session references. */
  readonly contSession = new Map<string, string>();
  readonly openConts = new Map<string, ContinuationRecord>();
  /** Artifact references seen in the logs of open continuations. */
  readonly contArtifacts = new Map<string, ArtifactRef[]>();
  readonly writers = new Map<string, StepLogWriter>();
  readonly inFlightArtifacts = new Set<string>();
  readonly lock = new KeyedLock();

  constructor(
    readonly fs: StoreFs,
    readonly layout: Layout,
    readonly clock: Clock,
    readonly logger: Logger,
    readonly newId: () => string,
    readonly settings: StoreSettings,
  ) {}

  /** Why nothing can be written, when the data directory is read-only or full; undefined when it is writable. */
  unwritable: string | undefined;

  /** Every write starts here: a degraded store refuses at once, with the reason, and changes nothing. */
  assertWritable(): void {
    if (this.unwritable) throw new StoreUnavailableError(this.unwritable);
  }

  /** The session when it exists and belongs to `owner`; another owner's is reported as missing. */
  ownedSession(owner: string, sessionId: string): SessionRecord {
    const session = isUlid(sessionId) ? this.sessions.get(sessionId) : undefined;
    if (!session || session.owner !== owner) throw new NotFoundError("session", sessionId);
    return session;
  }

  /**
   * Applies `change` to the cached session under its lock, bumps `version`
   * and writes it atomically. `expectedVersion` refuses stale writes.
   * `change` returning undefined means "nothing to write". `syncDir: false`
   * skips the directory fsync (see writeFileAtomic); only a turn's finish
   * uses it, because recovery can redo that write from the turn's files.
   */
  mutateSession(
    sessionId: string,
    change: (current: SessionRecord) => SessionRecord | undefined,
    expectedVersion?: number,
    options: { syncDir?: boolean } = {},
  ): Promise<SessionRecord> {
    return this.lock.run(`s:${sessionId}`, async () => {
      const current = this.sessions.get(sessionId);
      if (!current) throw new NotFoundError("session", sessionId);
      if (expectedVersion !== undefined && expectedVersion !== current.version) {
        throw new StaleWriteError(sessionId, expectedVersion, current.version);
      }
      const changed = change(current);
      if (!changed) return current;
      const next = redactSecrets({ ...changed, version: current.version + 1, updatedAt: this.clock.now() });
      await writeJsonAtomic({
        fs: this.fs,
        tmpDir: this.layout.tmpDir,
        path: this.layout.sessionFile(sessionId),
        value: next,
        ...(options.syncDir === false ? { syncDir: false } : {}),
      });
      this.sessions.set(sessionId, next);
      return next;
    });
  }

  /**
   * Changes the cached session under its lock without writing it (and
   * without a new `version`). For facts the disk already holds elsewhere: a
   * new turn is durable as its turn file, written by `change` itself, and
   * boot recovery adopts it, so `session.json` learns of it with its next write.
   */
  amendSession(sessionId: string, change: (current: SessionRecord) => Promise<SessionRecord>): Promise<SessionRecord> {
    return this.lock.run(`s:${sessionId}`, async () => {
      const current = this.sessions.get(sessionId);
      if (!current) throw new NotFoundError("session", sessionId);
      const next = redactSecrets(await change(current));
      this.sessions.set(sessionId, next);
      return next;
    });
  }

  /**
   * Deletes a file the store no longer needs. A file already gone counts as
   * removed; any other failure is logged and the file stays (boot lists a
   * leftover turn file again, and the next sweep retries an artifact).
   */
  async removeFile(path: string): Promise<boolean> {
    try {
      await this.fs.unlink(path);
      return true;
    } catch (err) {
      if (errnoOf(err) === "ENOENT") return true;
      this.logger.warn({ path, err: describeError(err) }, "could not remove a file the store no longer needs; it stays on disk");
      return false;
    }
  }

  async writeTurn(record: ContinuationRecord): Promise<ContinuationRecord> {
    const clean = redactSecrets(record);
    await writeJsonAtomic({
      fs: this.fs,
      tmpDir: this.layout.tmpDir,
      path: this.layout.turnFile(record.sessionId, record.id),
      value: clean,
    });
    return clean;
  }
}
