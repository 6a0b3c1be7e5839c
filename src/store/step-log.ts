import { dirname } from "node:path";
import type { Logger } from "../shared/index.js";
import { asStorageError, fsyncDir } from "./atomic.js";
import { errnoOf } from "./errors.js";
import type { StoreFileHandle, StoreFs } from "./fs.js";
import { encodeLogLine } from "./log-format.js";
import type { StoredEntry, StoredLine } from "./step-schema.js";

export interface GroupCommit {
  intervalMs: number;
  everySteps: number;
}

/**
 * The step log of one continuation, with group commit: lines are buffered and
 * written with one write + one fsync every `everySteps` lines or `intervalMs`,
 * whichever comes first. A durable append flushes at once and resolves only
 * after its fsync.
 */
export class StepLogWriter {
  readonly #fs: StoreFs;
  readonly #path: string;
  readonly #commit: GroupCommit;
  readonly #logger: Logger;
  #seq: number;
  #size: number;
  #exists: boolean;
  #pending: string[] = [];
  /** A failed flush left bytes past `#size` that could not be cut yet. */
  #tornTail = false;
  #handle: StoreFileHandle | undefined;
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { fs: StoreFs; path: string; commit: GroupCommit; logger: Logger; lastSeq: number; size: number; exists: boolean }) {
    this.#fs = options.fs;
    this.#path = options.path;
    this.#commit = options.commit;
    this.#logger = options.logger;
    this.#seq = options.lastSeq;
    this.#size = options.size;
    this.#exists = options.exists;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  async append(entry: StoredEntry, ts: number, durable: boolean): Promise<StoredLine> {
    const line = this.#enqueue(entry, ts);
    if (durable || this.#pending.length >= this.#commit.everySteps) {
      await this.flush();
    } else if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.flush().catch((err: unknown) => this.#logger.warn({ err, path: this.#path }, "step log flush failed; will retry"));
      }, this.#commit.intervalMs);
      this.#timer.unref();
    }
    return line;
  }

  /**
   * Appends a line and flushes it with everything buffered. When the flush
   * fails the line is taken back, so a later flush cannot write it after the
   * caller was told it failed.
   */
  async appendNow(entry: StoredEntry, ts: number): Promise<StoredLine> {
    const line = this.#enqueue(entry, ts);
    const text = this.#pending.at(-1);
    try {
      await this.flush();
    } catch (err) {
      const at = text === undefined ? -1 : this.#pending.lastIndexOf(text);
      if (at !== -1) this.#pending.splice(at, 1);
      if (this.#seq === line.seq) this.#seq -= 1;
      throw err;
    }
    return line;
  }

  #enqueue(entry: StoredEntry, ts: number): StoredLine {
    const line: StoredLine = { seq: this.#seq + 1, ts, type: entry.type, detail: entry.detail };
    if (entry.key !== undefined) line.key = entry.key;
    if (entry.artifact !== undefined) line.artifact = entry.artifact;
    this.#seq += 1;
    this.#pending.push(encodeLogLine(line));
    return line;
  }

  /** Writes and fsyncs everything buffered. Flushes run one after another. */
  flush(): Promise<void> {
    const run = this.#chain.then(() => this.#flushNow());
    this.#chain = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  async #flushNow(): Promise<void> {
    if (this.#pending.length === 0) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const count = this.#pending.length;
    const data = this.#pending.join("");
    try {
      // Appending after an uncut partial write would glue the next line to it and damage both.
      if (this.#tornTail) {
        await this.#fs.truncate(this.#path, this.#size);
        this.#tornTail = false;
      }
      this.#handle ??= await this.#fs.open(this.#path, "a");
      await this.#handle.writeFile(data);
      await this.#handle.sync();
      // A new file is durable only once its directory entry is.
      if (!this.#exists) {
        await fsyncDir(this.#fs, dirname(this.#path));
        this.#exists = true;
      }
    } catch (err) {
      // Cut any partial write so the log stays a clean sequence of lines; the
      // lines stay buffered and go out with the next flush, which cuts first
      // if this cut fails too. No file means nothing to cut.
      this.#tornTail = await this.#fs.truncate(this.#path, this.#size).then(
        () => false,
        (cutErr: unknown) => errnoOf(cutErr) !== "ENOENT",
      );
      const handle = this.#handle;
      this.#handle = undefined;
      await handle?.close().catch(() => undefined);
      throw asStorageError("append to the step log", err);
    }
    this.#size += Buffer.byteLength(data);
    this.#pending = this.#pending.slice(count);
  }
}
