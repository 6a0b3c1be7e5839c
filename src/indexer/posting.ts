import { FIELD_COUNT } from "./fields.js";

/**
 * Which documents hold a term, in document order, and in which fields: one
 * small integer an entry, the document above the field bits. One array of
 * them takes half the memory of two arrays (documents, fields) and half the
 * reading when a search walks it.
 */
export type Posting = number[];

const FIELD_BITS = 12;
const FIELDS_OF = (1 << FIELD_BITS) - 1;
if (FIELD_COUNT > FIELD_BITS) throw new Error(`A posting entry holds ${FIELD_BITS} fields; widen FIELD_BITS for ${FIELD_COUNT}.`);

/** Documents are numbered below this, so that an entry stays a small integer (31 bits) that V8 keeps unboxed. */
export const MAX_DOCS = 1 << (31 - FIELD_BITS);

export const entryOf = (doc: number, fields: number): number => (doc << FIELD_BITS) | fields;
export const docOf = (entry: number): number => entry >>> FIELD_BITS;
export const fieldsOf = (entry: number): number => entry & FIELDS_OF;

/** The fields in which `doc` holds the term, or 0: a bisection, as entries are in document order. */
export function fieldsIn(posting: Posting, doc: number): number {
  let lo = 0;
  let hi = posting.length - 1;
  // Most terms a word reaches are short lists far from the document.
  if (hi < 0 || doc < docOf(posting[0]!) || doc > docOf(posting[hi]!)) return 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = docOf(posting[mid]!);
    if (d === doc) return fieldsOf(posting[mid]!);
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}
