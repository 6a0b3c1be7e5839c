/** What the index keeps of a document besides its terms. */
export interface DocMeta {
  /** Orders equal scores, lower first (the name's length). */
  tie: number;
  /** Multiplies the score; 1 is neutral. */
  prior: number;
  /** The entity's area and floor as small numbers (-1 for none), for the near-area preference. */
  area: number;
  floor: number;
  /** Bit set of TRAIT (kinds.ts). */
  traits: number;
}

/** Four 32-bit slots a document: tie and traits packed; area; floor; prior. */
const SLOTS = 4;
const PACKED = 0;
const AREA = 1;
const FLOOR = 2;
const PRIOR = 3;

/**
 * What ranking reads of each document besides its terms, side by side in
 * one buffer: sixteen bytes a document, so a candidate's tie, traits, area,
 * floor and prior come in one cache line, where separate columns would take
 * four. The ranking loop reads them for thousands of candidates. Name
 * lengths are apart, a byte each: the search reads them for every document
 * whose name a word matched, in a loop of its own.
 */
export class DocTable {
  #ints = new Int32Array(64 * SLOTS);
  #floats = new Float32Array(this.#ints.buffer);
  #nameLengths = new Uint8Array(64);
  #length = 0;

  /** `nameLength`: how many different words the name has (0 for a name of unspaced script), at most 255. */
  push(meta: DocMeta, nameLength: number): void {
    if ((this.#length + 1) * SLOTS > this.#ints.length) this.#resize(this.#length * 2);
    this.#nameLengths[this.#length] = Math.min(nameLength, 0xff);
    const at = this.#length++ * SLOTS;
    this.#ints[at + PACKED] = Math.min(meta.tie, 0xffff) | ((meta.traits & 0xff) << 16);
    this.#ints[at + AREA] = meta.area;
    this.#ints[at + FLOOR] = meta.floor;
    this.#floats[at + PRIOR] = meta.prior;
  }

  tieOf(doc: number): number {
    return this.#ints[doc * SLOTS + PACKED]! & 0xffff;
  }

  traitsOf(doc: number): number {
    return (this.#ints[doc * SLOTS + PACKED]! >>> 16) & 0xff;
  }

  /** Per document, how many different words its name has; the array itself, valid until the next push. */
  nameLengths(): Uint8Array {
    return this.#nameLengths;
  }

  areaOf(doc: number): number {
    return this.#ints[doc * SLOTS + AREA]!;
  }

  floorOf(doc: number): number {
    return this.#ints[doc * SLOTS + FLOOR]!;
  }

  priorOf(doc: number): number {
    return this.#floats[doc * SLOTS + PRIOR]!;
  }

  /** Gives back the room kept for growth, after a full build. */
  trim(): void {
    if (this.#length * SLOTS < this.#ints.length) this.#resize(this.#length);
  }

  #resize(docs: number): void {
    const ints = new Int32Array(Math.max(docs, 64) * SLOTS);
    ints.set(this.#ints.subarray(0, this.#length * SLOTS));
    this.#ints = ints;
    this.#floats = new Float32Array(ints.buffer);
    const lengths = new Uint8Array(Math.max(docs, 64));
    lengths.set(this.#nameLengths.subarray(0, this.#length));
    this.#nameLengths = lengths;
  }
}
