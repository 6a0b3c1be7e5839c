/** Sets of documents as bit sets, one bit a document, as MatchSets builds them. */

export function setBit(bits: Uint32Array, doc: number): void {
  bits[doc >>> 5]! |= 1 << (doc & 31);
}

export function hasBit(bits: Uint32Array, doc: number): boolean {
  return (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
}
