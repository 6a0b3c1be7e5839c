export type TypedArray = Uint8Array | Uint16Array | Int32Array | Float32Array;

/**
 * A growable column of numbers over a typed array: one to four bytes a
 * value where a plain array of numbers takes eight.
 */
export class Column<T extends TypedArray> {
  #values: T;
  #length = 0;

  constructor(private readonly make: new (length: number) => T) {
    this.#values = new make(64);
  }

  at(i: number): number {
    return this.#values[i]!;
  }

  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = new this.make(Math.max(64, this.#values.length * 2));
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = value;
  }

  /** Gives back the room kept for growth, after a full build. */
  trim(): void {
    if (this.#values.length === this.#length) return;
    const exact = new this.make(this.#length);
    exact.set(this.#values.subarray(0, this.#length));
    this.#values = exact;
  }
}

