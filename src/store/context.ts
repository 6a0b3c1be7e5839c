import { describeError, type Clock, type Logger, type Monotonic } from "../shared/index.js";
import { asStorageError, writeJsonAtomic } from "./atomic.js";
import type { ArtifactRef, ContinuationRecord } from "./continuation-schema.js";
import { NotFoundError, StaleWriteError, StorageError, errnoOf, StoreUnavailableError } from "./errors.js";
import type { StoreFs } from "./fs.js";
import { isUlid } from "./ids.js";
import { KeyedLock } from "./keyed-lock.js";
import { MemoryCache } from "./memory-cache.js";
import type { Layout } from "./paths.js";
import { readRecord } from "./read-record.js";
import { RecordAges } from "./record-ages.js";
import { redactSecrets } from "./redact.js";
import { headOf, withMemory } from "./session-head.js";
import { SessionRecordSchema, type SessionHead, type SessionMemory, type SessionRecord } from "./session-schema.js";
import type { UsageLedgerFile } from "./usage-file.js";
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
 * The store's shared internals. Every session's head is held in memory (it is
 * small and `list` needs it); memory bodies only for the sessions used last,
 * since ended sessions are kept for days and their number has no bound;
 * continuation records only while open.
 */
export class StoreContext {
  readonly sessions = new Map<string, SessionHead>();
  /** Memory bodies, read under the session's lock only (see #memoryOf). */
  readonly memories = new MemoryCache();
  /**
   * Memory newer than its `session.json`: boot recovery redid a lost finish
   * but the data directory was read-only, so the disk still has the old one.
   * Kept until written; empty whenever the directory is writable.
   */
  readonly unsavedMemory = new Map<string, SessionMemory>();
  /** continuationId → sessionId, for every continuation a session references. */
  readonly contSession = new Map<string, string>();
  readonly openConts = new Map<string, ContinuationRecord>();
  /** Artifact references seen in the logs of open continuations. */
  readonly contArtifacts = new Map<string, ArtifactRef[]>();
  readonly writers = new Map<string, StepLogWriter>();
  readonly inFlightArtifacts = new Set<string>();
  readonly lock = new KeyedLock();
  /** When this run first saw each timestamp the sweeper judges (see RecordAges). */
  readonly ages: RecordAges;

  constructor(
    readonly fs: StoreFs,
    readonly layout: Layout,
    readonly clock: Clock,
    readonly logger: Logger,
    readonly newId: () => string,
    readonly settings: StoreSettings,
    monotonic: Monotonic,
  ) {
    this.ages = new RecordAges(clock, monotonic);
  }

  /** Holds a session's head, noting its timestamps as seen by this run. */
  holdHead(head: SessionHead): void {
    this.sessions.set(head.id, head);
    this.ages.seeSession(head);
  }

  /** The usage ledger, once boot has read it; a finishing turn is added to it. */
  usage: UsageLedgerFile | undefined;

  /** Why nothing can be written, when the data directory is read-only or full; undefined when it is writable. */
  unwritable: string | undefined;

  /** Every write starts here: a degraded store refuses at once, with the reason, and changes nothing. */
  assertWritable(): void {
    if (this.unwritable) throw new StoreUnavailableError(this.unwritable);
  }

  /** The session when it exists and belongs to `owner`; another owner's is reported as missing. */
  ownedSession(owner: string, sessionId: string): SessionHead {
    const session = isUlid(sessionId) ? this.sessions.get(sessionId) : undefined;
    if (!session || session.owner !== owner) throw new NotFoundError("session", sessionId);
    return session;
  }

  /**
   * Applies `change` to the full session under its lock, bumps `version`
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
  ): Promise<SessionHead> {
    return this.lock.run(`s:${sessionId}`, async () => {
      const head = this.sessions.get(sessionId);
      if (!head) throw new NotFoundError("session", sessionId);
      if (expectedVersion !== undefined && expectedVersion !== head.version) {
        throw new StaleWriteError(sessionId, expectedVersion, head.version);
      }
      // session.json holds the whole record, so every write carries the memory, read back if it was evicted.
      const changed = change(withMemory(head, await this.#memoryOf(sessionId)));
      if (!changed) return head;
      const next = redactSecrets({ ...changed, version: head.version + 1, updatedAt: this.clock.now() });
      await writeJsonAtomic({
        fs: this.fs,
        tmpDir: this.layout.tmpDir,
        path: this.layout.sessionFile(sessionId),
        value: next,
        ...(options.syncDir === false ? { syncDir: false } : {}),
      });
      return this.holdWritten(next);
    });
  }

  /** Holds a record just written to `session.json`: its head, and its memory as the most recently used. */
  holdWritten(record: SessionRecord): SessionHead {
    const head = headOf(record);
    this.holdHead(head);
    this.memories.set(record.id, record.memory);
    this.unsavedMemory.delete(record.id);
    return head;
  }

  /** Forgets a deleted session. */
  dropSession(sessionId: string): void {
    const head = this.sessions.get(sessionId);
    if (head) this.ages.forgetSession(head);
    this.sessions.delete(sessionId);
    this.memories.delete(sessionId);
    this.unsavedMemory.delete(sessionId);
  }

  /** The session's memory, for readers outside a write: under its lock, like every cache fill. */
  readMemory(sessionId: string): Promise<SessionMemory> {
    return this.lock.run(`s:${sessionId}`, async () => {
      // The sweeper may have deleted the session while this waited for the lock.
      if (!this.sessions.has(sessionId)) throw new NotFoundError("session", sessionId);
      return this.#memoryOf(sessionId);
    });
  }

  /**
   * The memory `session.json` holds, from the cache or the file. Only under
   * the session's lock: a read that raced a write could otherwise put the
   * older memory in the cache, and the next write would save it. A file that
   * cannot be read refuses the caller rather than stand in an empty memory.
   */
  async #memoryOf(sessionId: string): Promise<SessionMemory> {
    const held = this.unsavedMemory.get(sessionId) ?? this.memories.get(sessionId);
    if (held) return held;
    const path = this.layout.sessionFile(sessionId);
    const read = await readRecord(this.fs, path, SessionRecordSchema).catch((err: unknown) => {
      throw asStorageError(`read the memory of session ${sessionId}`, err);
    });
    if (read.kind !== "ok" || read.value.id !== sessionId) {
      const reason = read.kind === "corrupt" ? read.reason : read.kind === "missing" ? "the file is missing" : "it holds another session";
      this.logger.error({ sessionId, reason }, "session.json can no longer be read; run fsck");
      throw new StorageError(`read the memory of session ${sessionId} (${reason}; run fsck)`, undefined, undefined);
    }
    this.memories.set(sessionId, read.value.memory);
    return read.value.memory;
  }

  /**
   * Changes the cached session under its lock without writing it (and
   * without a new `version`). For facts the disk already holds elsewhere: a
   * new turn is durable as its turn file, written by `change` itself, and
   * boot recovery adopts it, so `session.json` learns of it with its next write.
   */
  amendSession(sessionId: string, change: (current: SessionHead) => Promise<SessionHead>): Promise<SessionHead> {
    return this.lock.run(`s:${sessionId}`, async () => {
      const current = this.sessions.get(sessionId);
      if (!current) throw new NotFoundError("session", sessionId);
      const next = redactSecrets(await change(current));
      this.holdHead(next);
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
