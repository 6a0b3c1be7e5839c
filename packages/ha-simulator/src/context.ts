import type { Logger } from "./common/index.js";
import type { SimAuth } from "./auth/index.js";
import type { HomeModel } from "./home.js";
import type { SimUser, UserStore } from "./users.js";

/** Switches the fault injector flips; connections read them on every message. */
export interface FaultState {
  frozen: boolean;
  slowMs: number;
  refuseAuth: boolean;
  /** Commands answered only after this many ms, by type: HA busy starting up, say. */
  delayedCommands: Map<string, number>;
}

/** What every connection and REST request shares. */
export interface ServerContext {
  home: HomeModel;
  users: UserStore;
  /** Logins: codes, refresh tokens and the access tokens signed with them. */
  auth: SimAuth;
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

export type CommandMessage = { id: number; type: string } & Record<string, unknown>;

/**
 * A connection as a command sees it. Commands and connections refer to each
 * other, so this contract lives here, beneath both, and SimConnection
 * implements it.
 */
export interface CommandConnection {
  readonly ctx: ServerContext;
  readonly user: SimUser | undefined;
  /** The token the connection authenticated with. */
  readonly token: string | undefined;
  sendResult(id: number, result: unknown): void;
  /** An event message whose `event` member is already serialised. */
  sendEventJson(id: number, eventJson: string): void;
  sendMessage(message: object): void;
  setSupportedFeatures(features: Record<string, number>): void;
  addSubscription(id: number, unsubscribe: () => void): void;
  removeSubscription(id: number): boolean;
}

export interface Command {
  type: string;
  handle(conn: CommandConnection, msg: CommandMessage): void | Promise<void>;
}
