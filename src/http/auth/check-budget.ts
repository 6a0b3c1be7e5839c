/** A token bucket: `capacity` at most, refilled at `perMinute`. */
class Bucket {
  constructor(
    private tokens: number,
    private updatedAt: number,
  ) {}

  take(now: number, capacity: number, perMinute: number): boolean {
    this.tokens = Math.min(capacity, this.tokens + ((now - this.updatedAt) * perMinute) / 60_000);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until one more check is allowed. */
  waitMs(perMinute: number): number {
    return Math.ceil(((1 - this.tokens) * 60_000) / perMinute);
  }
}

export interface CheckBudgetOptions {
  /** Unknown tokens one client address may have checked with HA per minute (and in one burst). Default 10. */
  perAddressPerMinute?: number;
  /** Unknown tokens all addresses together may have checked per minute. Default 30. */
  globalPerMinute?: number;
  /** Client addresses remembered at once; the least recently seen is forgotten first. Default 10,000. */
  maxAddresses?: number;
}

/**
 * How many tokens HA has never accepted may be sent to HA for checking: a
 * budget per client address, and one for everybody. A flood from anywhere
 * therefore reaches HA a bounded number of times, and the one address it
 * comes from runs out of budget first. Tokens HA accepted before are not
 * counted, so a flood never keeps a known user out.
 */
export class CheckBudget {
  readonly perAddress: number;
  readonly global: number;
  readonly #maxAddresses: number;
  readonly #addresses = new Map<string, Bucket>();
  readonly #all: Bucket;

  constructor(
    private readonly now: () => number,
    options: CheckBudgetOptions = {},
  ) {
    this.perAddress = options.perAddressPerMinute ?? 10;
    this.global = options.globalPerMinute ?? 30;
    this.#maxAddresses = options.maxAddresses ?? 10_000;
    this.#all = new Bucket(this.global, now());
  }

  /** Takes one check for `address`, or says how long to wait. */
  take(address: string): { ok: true } | { ok: false; retryAfterMs: number } {
    const now = this.now();
    let bucket = this.#addresses.get(address);
    if (bucket) this.#addresses.delete(address);
    else {
      bucket = new Bucket(this.perAddress, now);
      if (this.#addresses.size >= this.#maxAddresses) this.#addresses.delete(this.#addresses.keys().next().value!);
    }
    this.#addresses.set(address, bucket);
    if (!bucket.take(now, this.perAddress, this.perAddress)) return { ok: false, retryAfterMs: bucket.waitMs(this.perAddress) };
    if (!this.#all.take(now, this.global, this.global)) return { ok: false, retryAfterMs: this.#all.waitMs(this.global) };
    return { ok: true };
  }
}
