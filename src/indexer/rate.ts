import type { Clock } from "../shared/index.js";

/** Counts events in one-second buckets and reports the mean rate over a sliding window. */
export class RateMeter {
  readonly #buckets: Float64Array;
  #currentSecond = 0;

  constructor(
    private readonly clock: Clock,
    private readonly windowSeconds = 10,
  ) {
    this.#buckets = new Float64Array(windowSeconds);
  }

  add(count: number): void {
    this.#advance();
    this.#buckets[this.#currentSecond % this.windowSeconds]! += count;
  }

  /** Events per second over the last full window, counting the current second. */
  perSecond(): number {
    this.#advance();
    let sum = 0;
    for (const b of this.#buckets) sum += b;
    return Math.round((sum / this.windowSeconds) * 10) / 10;
  }

  #advance(): void {
    const second = Math.floor(this.clock.now() / 1000);
    if (second === this.#currentSecond) return;
    const gap = Math.min(second - this.#currentSecond, this.windowSeconds);
    for (let i = 1; i <= gap; i++) this.#buckets[(this.#currentSecond + i) % this.windowSeconds] = 0;
    this.#currentSecond = second;
  }
}
