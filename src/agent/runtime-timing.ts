import { loggedClockJumps, systemMonotonic, type Clock, type ClockJumps, type Monotonic } from "../shared/index.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";

/** The clocks every approval wait and deadline of one runtime is measured on. */
export interface RuntimeTiming {
  clock: Clock;
  monotonic: Monotonic;
  jumps: ClockJumps;
  checkMs?: number;
  carriedFrom?: number;
}

/**
 * One set of clocks for the desk and the deadlines alike, so a wall-clock
 * jump is noticed (and logged) once, whichever of them is waiting.
 */
export function runtimeTiming(options: Pick<AgentRuntimeOptions, "clock" | "monotonic" | "jumps" | "deadlineCheckMs" | "logger" | "store">): RuntimeTiming {
  const { clock, logger } = options;
  const monotonic = options.monotonic ?? systemMonotonic;
  const jumps = options.jumps ?? loggedClockJumps({ clock, monotonic, logger });
  return {
    clock,
    monotonic,
    jumps,
    ...(options.deadlineCheckMs ? { checkMs: options.deadlineCheckMs } : {}),
    // Approvals carried over a restart count their time left from what the data last saw, when the clock is behind it.
    ...(options.store.lastSeenAt === undefined ? {} : { carriedFrom: options.store.lastSeenAt }),
  };
}
