import { describeError, type Clock, type Logger } from "../shared/index.js";
import { writeJsonAtomic } from "./atomic.js";
import { ContinuationRecordSchema, type ContinuationRecord } from "./continuation-schema.js";
import type { StoreFs } from "./fs.js";
import { KeyedLock } from "./keyed-lock.js";
import type { Layout } from "./paths.js";
import { moveAside } from "./recover-files.js";
import type { RecoveryReport } from "./recovery-report.js";
import { readRecord } from "./read-record.js";
import { isFinalStatus } from "./session-schema.js";
import type { SessionHead } from "./session-schema.js";
import { addTurn, addTurns, countedIds, emptyLedger, isCounted, LEDGER_KEEP_MS, pruneLedger, SLOT_MS, UsageLedgerSchema, type UsageLedger, type UsageSlot } from "./usage-ledger.js";
import { forEachLimited, READS_IN_FLIGHT } from "./limited.js";

/** A slot as readers get it: the ids are the ledger's own bookkeeping. */
export type UsageTotals = Omit<UsageSlot, "ids">;

export interface UsageApi {
  /** Quarter-hour totals of the last 32 days, oldest first; one owner's, or everyone's. */
  slots(owner?: string): UsageTotals[];
}

export interface UsageLedgerFile extends UsageApi {
  /** Counts a turn that just finished; the file follows within the write delay, and the next start counts the turn from its own file if it does not. */
  add(record: ContinuationRecord): Promise<void>;
  /** Writes what is counted and not yet written: at close. */
  flush(): Promise<void>;
}

/** How long counted turns wait before `usage.json` is written again. */
export const USAGE_WRITE_DELAY_MS = 60_000;

/**
 * `usage.json`, held in memory and rewritten whole at most once per write
 * delay after turns finish, and at close. A turn is final on disk before it
 * is counted, so a crash before the write leaves it uncounted, never counted
 * twice, and the next start adds every finished turn still on disk that the
 * ledger's ids do not name. So the file costs one fsync a minute in a busy
 * home rather than one per turn, and its rename skips the folder fsync for
 * the same reason.
 */
export async function openUsageLedger(o: {
  fs: StoreFs;
  layout: Layout;
  clock: Clock;
  logger: Logger;
  report: RecoveryReport;
  writable: boolean;
  /** How long a finished turn's files stay: ids are kept a week longer, for turns that waited for a person. */
  retentionMs: number;
  sessions: Iterable<SessionHead>;
  /** 0 writes at every turn. */
  writeDelayMs: number;
  /** Runs a write later; returns how to cancel it. */
  schedule: (ms: number, run: () => void) => () => void;
}): Promise<UsageLedgerFile> {
  const { fs, layout, clock, logger } = o;
  const path = layout.usageFile;
  const idsKeepMs = Math.min(LEDGER_KEEP_MS, o.retentionMs + 7 * 86_400_000);
  const lock = new KeyedLock();
  const read = await readRecord(fs, path, UsageLedgerSchema);
  if (read.kind === "corrupt") await moveAside({ fs, layout, clock, repair: o.writable, deep: false }, o.report, path, read.reason, "usage.json");
  let ledger: UsageLedger = read.kind === "ok" ? read.value : emptyLedger();

  const save = async () => {
    ledger = pruneLedger(ledger, clock.now(), idsKeepMs);
    if (o.writable) await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path, value: ledger, syncDir: false });
  };

  // Finished turns the ledger has not counted: a crash came between a turn's finish and this file's write, or boot recovery finished it from its log.
  // Every session's turns are checked at every start, so the ids are looked up in a set, and the few turns to add are read 32 at a time.
  const counted = countedIds(ledger);
  const since = clock.now() - LEDGER_KEEP_MS;
  const missing: { sessionId: string; continuationId: string }[] = [];
  for (const head of o.sessions) {
    for (const ref of head.messages) {
      if (!isFinalStatus(ref.status) || ref.createdAt < since || isCounted(ledger, counted, { id: ref.continuationId, createdAt: ref.createdAt })) continue;
      missing.push({ sessionId: head.id, continuationId: ref.continuationId });
    }
  }
  const found: ContinuationRecord[] = [];
  await forEachLimited(missing, READS_IN_FLIGHT, async ({ sessionId, continuationId }) => {
    const turn = await readRecord(fs, layout.turnFile(sessionId, continuationId), ContinuationRecordSchema);
    if (turn.kind === "ok" && isFinalStatus(turn.value.status)) found.push(turn.value);
  });
  // In the order the turns began, whatever order the reads ended in, so a rebuilt file is the same every time.
  found.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  ledger = addTurns(ledger, found, clock.now());
  const added = found.length;
  if (added > 0 || read.kind !== "ok") {
    if (added > 0) logger.info(`usage.json: added ${added} finished turns it had not counted`);
    await save().catch((err: unknown) => logger.warn(`usage.json could not be written: ${describeError(err)}`));
  }

  let unwritten = false;
  let pending: (() => void) | undefined;
  /** Writes what is counted and not yet written; called under the lock. */
  const writeUnwritten = async () => {
    pending?.();
    pending = undefined;
    if (!unwritten) return;
    unwritten = false;
    await save().catch((err: unknown) => logger.warn(`usage.json could not be written (the next start counts the turns from their files): ${describeError(err)}`));
  };
  const flush = () => lock.run("usage", writeUnwritten);

  return {
    add: (record) =>
      lock.run("usage", async () => {
        const next = addTurn(ledger, record, clock.now());
        if (next === ledger) return;
        ledger = next;
        unwritten = true;
        if (o.writeDelayMs === 0) return writeUnwritten();
        pending ??= o.schedule(o.writeDelayMs, () => {
          pending = undefined;
          void flush();
        });
      }),
    flush,
    slots(owner) {
      const since = clock.now() - LEDGER_KEEP_MS;
      return ledger.slots.filter((s) => s.at >= since && (owner === undefined || s.owner === owner)).map(({ ids: _ids, ...totals }) => totals);
    },
  };
}

export { SLOT_MS };
