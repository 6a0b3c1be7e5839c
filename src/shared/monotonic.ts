import { readFileSync } from "node:fs";

/** Milliseconds from an arbitrary start that never go back: what elapsed time is measured on. */
export interface Monotonic {
  elapsed(): number;
}

/** How long a reading of the kernel's uptime is trusted before it is read again. */
const REREAD_MS = 250;

/**
 * Elapsed time from the kernel's own count (`/proc/uptime`), which no one
 * sets: NTP and `date -s` move the wall clock only, and a time-faking
 * preload (libfaketime, which by default fakes CLOCK_MONOTONIC and with it
 * `performance.now()`) does not reach a file. Between readings it goes on by
 * `now()`'s steps; a step that is negative or longer than the re-read period
 * (a faked jump) is not believed, and the uptime is read again. Without
 * `/proc/uptime` (not Linux) it is `now()` itself, never going back.
 */
export function kernelMonotonic(o: { now?: () => number; uptimeMs?: () => number | undefined } = {}): Monotonic {
  const now = o.now ?? (() => performance.now());
  const uptimeMs = o.uptimeMs ?? readUptimeMs;
  let base = uptimeMs();
  let at = now();
  let last = 0;
  const origin = base ?? at;
  return {
    elapsed() {
      const t = now();
      const step = t - at;
      if (base === undefined) {
        at = t;
        last += Math.max(0, step);
        return last;
      }
      if (step < 0 || step > REREAD_MS) {
        const read = uptimeMs();
        if (read !== undefined) base = read;
        else base += Math.max(0, Math.min(step, REREAD_MS));
        at = t;
      }
      const value = base - origin + Math.max(0, Math.min(t - at, REREAD_MS));
      last = Math.max(last, value);
      return last;
    },
  };
}

function readUptimeMs(): number | undefined {
  try {
    const seconds = Number.parseFloat(readFileSync("/proc/uptime", "latin1"));
    return Number.isFinite(seconds) ? seconds * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export const systemMonotonic: Monotonic = kernelMonotonic();
