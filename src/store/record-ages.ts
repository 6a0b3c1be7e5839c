import type { Clock, Monotonic } from "../shared/index.js";
import type { SessionHead } from "./session-schema.js";

interface Sight {
  /** The stored timestamp this sight is of; a new one starts a new sight. */
  at: number;
  /** The wall clock and the elapsed time when this run first saw it. */
  wall: number;
  mono: number;
}

/**
 * How old a stored timestamp is, for the sweeper. A timestamp is wall-clock
 * time, written under whatever the clock said then: a Pi without a
 * real-time clock boots months behind, writes turns, and NTP moves the
 * clock forward later. By the wall clock alone those turns would be months
 * old at once. So age is also counted from when this run first saw the
 * timestamp (written or read at boot): its wall age then, plus the time
 * elapsed since. The smaller of the two is the age, so a clock jump in
 * either direction can only make a record look younger, never older.
 */
export class RecordAges {
  readonly #sights = new Map<string, Sight>();

  constructor(
    private readonly clock: Clock,
    private readonly monotonic: Monotonic,
  ) {}

  /** Notes a timestamp the first time this run sees it. */
  see(key: string, at: number): void {
    if (this.#sights.get(key)?.at === at) return;
    this.#sights.set(key, { at, wall: this.clock.now(), mono: this.monotonic.elapsed() });
  }

  /** Every timestamp the sweeper judges in a session: its idle clocks and each turn's finish. */
  seeSession(head: SessionHead): void {
    this.see(`s:${head.id}`, head.endedAt ?? head.updatedAt);
    this.see(`a:${head.id}`, head.lastActivityAt);
    for (const m of head.messages) this.see(`c:${m.continuationId}`, m.updatedAt);
  }

  /** Milliseconds since `at`, by the wall clock and by this run's elapsed time, whichever is less. */
  age(key: string, at: number): number {
    this.see(key, at);
    const sight = this.#sights.get(key)!;
    const byWall = this.clock.now() - at;
    const bySight = Math.max(0, sight.wall - at) + (this.monotonic.elapsed() - sight.mono);
    return Math.min(byWall, bySight);
  }

  forgetSession(head: SessionHead): void {
    this.#sights.delete(`s:${head.id}`);
    this.#sights.delete(`a:${head.id}`);
    for (const m of head.messages) this.#sights.delete(`c:${m.continuationId}`);
  }

  forget(key: string): void {
    this.#sights.delete(key);
  }
}
