import type { Clock } from "../shared/index.js";

type Entry<T> = { value: Promise<T> } | { error: unknown; until: number };

/**
 * Set-up clients by model name, with two bounds a caller cannot push past:
 * at most `max` entries besides the ones `keep` names (the configured
 * model), dropping the least recently used first; and a set-up that failed
 * is remembered for `failureMs`, answered from memory rather than tried
 * again on every call.
 */
export class ClientCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #args: { clock: Clock; max: number; failureMs: number; keep: (key: string) => boolean; onFailure?: (key: string, err: unknown) => void };

  constructor(args: { clock: Clock; max: number; failureMs: number; keep: (key: string) => boolean; onFailure?: (key: string, err: unknown) => void }) {
    this.#args = args;
  }

  /** The entries held: clients set up or being set up, and remembered failures. */
  get size(): number {
    return this.#entries.size;
  }

  /** The client for `key`: the one held, the remembered failure, or a new set-up by `create`. */
  get(key: string, create: () => Promise<T>): Promise<T> {
    const held = this.#entries.get(key);
    if (held && "value" in held) {
      this.#touch(key, held);
      return held.value;
    }
    if (held && this.#args.clock.now() < held.until) {
      this.#touch(key, held);
      return Promise.reject(held.error);
    }
    const value = create();
    this.#touch(key, { value });
    value.catch((err: unknown) => {
      // Only the entry this set-up made is replaced: an eviction meanwhile stays evicted.
      const now = this.#entries.get(key);
      if (!now || !("value" in now) || now.value !== value) return;
      this.#entries.set(key, { error: err, until: this.#args.clock.now() + this.#args.failureMs });
      this.#args.onFailure?.(key, err);
    });
    return value;
  }

  /** Every client set up so far; the cache is empty afterwards. */
  async drain(): Promise<T[]> {
    const pending = [...this.#entries.values()].flatMap((e) => ("value" in e ? [e.value] : []));
    this.#entries.clear();
    const settled = await Promise.allSettled(pending);
    return settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  }

  /** Marks the entry most recently used (last in the map's order), then drops the oldest past the bound. */
  #touch(key: string, entry: Entry<T>): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    let over = [...this.#entries.keys()].filter((k) => !this.#args.keep(k)).length - this.#args.max;
    // Dropped, not closed: a running turn may still hold the client, and it is collected once that turn ends.
    for (const k of this.#entries.keys()) {
      if (over <= 0) break;
      if (k === key || this.#args.keep(k)) continue;
      this.#entries.delete(k);
      over--;
    }
  }
}
