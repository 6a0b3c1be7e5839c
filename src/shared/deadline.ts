import type { Clock } from "./clock.js";
import type { Logger } from "./logger.js";
import type { Monotonic } from "./monotonic.js";

/** A Node timer holds at most 2^31 - 1 ms; past that it fires after 1 ms with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** How often a waiting deadline looks at both clocks: a moved wall clock is noticed within this. */
export const DEADLINE_CHECK_MS = 30_000;
/** Wall and elapsed time differing by more than this between two looks is a jump (NTP at boot, a set clock). */
export const CLOCK_JUMP_MS = 2 * 60_000;

export interface ClockJump {
  wallBefore: number;
  wallNow: number;
  elapsedMs: number;
  /** Wall time passed minus elapsed time: positive when the wall clock jumped forward. */
  jumpMs: number;
}

/**
 * Notices the wall clock moving against elapsed time. Each jump is reported
 * once: the readings are taken anew at every look, so the next look measures
 * from after the jump.
 */
export class ClockJumps {
  #wall: number;
  #mono: number;

  constructor(private readonly o: { clock: Clock; monotonic: Monotonic; onJump(jump: ClockJump): void }) {
    this.#wall = o.clock.now();
    this.#mono = o.monotonic.elapsed();
  }

  check(): void {
    const wall = this.o.clock.now();
    const mono = this.o.monotonic.elapsed();
    const elapsedMs = mono - this.#mono;
    const jumpMs = wall - this.#wall - elapsedMs;
    const wallBefore = this.#wall;
    this.#wall = wall;
    this.#mono = mono;
    if (Math.abs(jumpMs) > CLOCK_JUMP_MS) this.o.onJump({ wallBefore, wallNow: wall, elapsedMs, jumpMs });
  }
}

/**
 * The program's jump watch: each jump is logged once, with both readings,
 * whichever deadline or periodic look notices it.
 */
export function loggedClockJumps(o: { clock: Clock; monotonic: Monotonic; logger: Pick<Logger, "warn"> }): ClockJumps {
  return new ClockJumps({
    clock: o.clock,
    monotonic: o.monotonic,
    onJump: (j) =>
      o.logger.warn(
        { wall_before: new Date(j.wallBefore).toISOString(), wall_now: new Date(j.wallNow).toISOString(), elapsed_ms: Math.round(j.elapsedMs), jump_ms: Math.round(j.jumpMs) },
        `the wall clock jumped ${j.jumpMs > 0 ? "forward" : "back"} ${Math.round(Math.abs(j.jumpMs) / 1000)} s against elapsed time; deadlines are checked by both clocks`,
      ),
  });
}

/** Looks for a jump every `everyMs` (default 30 s), so one is logged even when nothing waits on a deadline. Returns the stop. */
export function watchClockJumps(jumps: ClockJumps, everyMs = DEADLINE_CHECK_MS): () => void {
  const timer = setInterval(() => jumps.check(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Calls `due` once a deadline passes, by the wall clock (`expiresAt`) or by
 * elapsed time, whichever comes first. The elapsed budget is what the wall
 * clock says is left now, but never more than `maxMs`: a clock far behind
 * (a reboot without a real-time clock) cannot stretch a wait, and a clock
 * that jumps forward ends it at the next look. `notBefore`, for a deadline
 * carried over a restart, is the latest time the previous run saw: when the
 * clock now reads earlier, what is left counts from there, so the wait keeps
 * the time it had left. No timer is armed beyond `checkMs`. Returns a
 * function that stops the watch.
 */
export function watchDeadline(args: {
  clock: Clock;
  monotonic: Monotonic;
  expiresAt: number;
  maxMs: number;
  notBefore?: number;
  due(): void;
  jumps?: ClockJumps;
  checkMs?: number;
  unref?: boolean;
}): () => void {
  const { clock, monotonic, expiresAt } = args;
  const started = monotonic.elapsed();
  const from = Math.max(clock.now(), args.notBefore ?? -Infinity);
  const budget = Math.min(Math.max(0, expiresAt - from), Math.max(0, args.maxMs));
  const checkMs = Math.min(args.checkMs ?? DEADLINE_CHECK_MS, MAX_TIMER_MS);
  let timer: NodeJS.Timeout | undefined;
  const left = () => Math.min(expiresAt - clock.now(), budget - (monotonic.elapsed() - started));
  const arm = (ms: number) => {
    timer = setTimeout(look, Math.min(Math.max(0, ms), checkMs));
    if (args.unref) timer.unref();
  };
  const look = () => {
    args.jumps?.check();
    const ms = left();
    if (ms <= 0) args.due();
    else arm(ms);
  };
  arm(left());
  return () => clearTimeout(timer);
}
