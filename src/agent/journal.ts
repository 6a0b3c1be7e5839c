import { JournalRecordSchema, type JournalRecord, type JournalRecordType } from "./records.js";

/** A journaled line as the store hands it back (artifact-backed details already resolved), not yet parsed. */
export interface JournalEntry {
  type: string;
  detail: unknown;
}

/**
 * A continuation's step log as the loop sees it. The store-backed one
 * writes `logs/{contId}.log`; tests use an array.
 */
export interface TurnJournal {
  /** With `durable`, resolves only once the line is fsynced (intents before actions). */
  append(entry: { type: JournalRecordType; key?: string; detail: unknown }, options?: { durable?: boolean }): Promise<void>;
  /** Every intact line so far, with details that were moved to artifacts read back. */
  read(): Promise<JournalEntry[]>;
}

/**
 * The one reader of a turn's journal: each line is parsed once against its
 * record schema. Lines of other types (plans, observed events) are left
 * out, and so is a line that does not parse: the store has already checked
 * each line's checksum, so such a line can only come from a newer program,
 * whose steps this one cannot continue.
 */
export function parseJournal(entries: readonly JournalEntry[]): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const entry of entries) {
    const parsed = JournalRecordSchema.safeParse(entry);
    if (parsed.success) records.push(parsed.data);
  }
  return records;
}

/** Reads and parses a journal in one go. */
export async function readJournal(journal: TurnJournal): Promise<JournalRecord[]> {
  return parseJournal(await journal.read());
}
