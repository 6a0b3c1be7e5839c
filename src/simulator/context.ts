import type { Logger } from "../shared/index.js";
import type { Command } from "./commands/command.js";
import type { HomeModel } from "./home.js";
import type { UserStore } from "./users.js";

/** Switches the fault injector flips; connections read them on every message. */
export interface FaultState {
  frozen: boolean;
  slowMs: number;
  refuseAuth: boolean;
}

/** What every connection and REST request shares. */
export interface ServerContext {
  home: HomeModel;
  users: UserStore;
  faults: FaultState;
  commands: ReadonlyMap<string, Command>;
  logger: Logger;
  authTimeoutMs: number;
  haVersion: string;
  counters: { messagesSent: number };
  /** How long a client may stay above PENDING_MSG_PEAK pending messages (HA: 10 s). */
  pendingPeakMs: number;
  /** Runs `run` after `ms`; returns a cancel function. A seam so tests can fire timers themselves. */
  schedule: (ms: number, run: () => void) => () => void;
}
