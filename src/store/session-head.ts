import type { MemorySizes, SessionHead, SessionMemory, SessionRecord } from "./session-schema.js";

export function memorySizesOf(memory: SessionMemory): MemorySizes {
  return { rollingSummaryChars: memory.rollingSummary.length, facts: memory.facts.length, pins: memory.pins.length, lastK: memory.lastK.length };
}

/** The record without its memory bodies, so holding it does not hold them. */
export function headOf(record: SessionRecord): SessionHead {
  const { memory, ...head } = record;
  return { ...head, memorySizes: memorySizesOf(memory) };
}

/** The full record again, as `session.json` holds it. */
export function withMemory(head: SessionHead, memory: SessionMemory): SessionRecord {
  const { memorySizes: _sizes, ...record } = head;
  return { ...record, memory };
}
