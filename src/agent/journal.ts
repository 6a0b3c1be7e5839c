import type { JournalEntry } from "./replay.js";

/**
 * A continuation's step log as the loop sees it. The store-backed one
 * writes `logs/{contId}.log`; tests use an array.
 */
export interface TurnJournal {
  /** With `durable`, resolves only once the line is fsynced (intents before actions). */
  append(entry: { type: "model_response" | "tool_call" | "tool_result" | "summary" | "retrieval" | "error"; key?: string; detail: unknown }, options?: { durable?: boolean }): Promise<void>;
  /** Every intact line so far, with details that were moved to artifacts read back. */
  read(): Promise<JournalEntry[]>;
}
