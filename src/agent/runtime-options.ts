import type { HomeIndex } from "../indexer/index.js";
import type { ModelSource } from "../models/index.js";
import type { Clock, ClockJumps, Logger, Monotonic } from "../shared/index.js";
import type { Store } from "../store/index.js";
import type { ActuationCeiling, ToolRegistry } from "../tools/index.js";
import type { TurnPersonas } from "./execute-continuation.js";

/** What the runtime asks of the models: the configured one, or another the owner allows, chosen by whom the owner allows. */
export type AgentModels = Pick<ModelSource, "get" | "missing" | "check">;

export interface AgentRuntimeOptions {
  store: Store;
  registry: ToolRegistry;
  index: HomeIndex;
  models: AgentModels;
  /** The wall clock: what deadlines are written in and compared with. */
  clock: Clock;
  /** Elapsed time within this run (default `performance.now()`): what a wait is measured on, whatever the wall clock does. */
  monotonic?: Monotonic;
  /** How often a waiting approval looks at both clocks (default 30 s). */
  deadlineCheckMs?: number;
  /** Notices and logs wall-clock jumps; one for the whole program (default: the runtime's own). */
  jumps?: ClockJumps;
  logger: Logger;
  ceiling: ActuationCeiling;
  /** allow_automation_edits: turns that ask a person may save automations after a yes. */
  automationEdits?: boolean;
  /** Model calls in flight across all sessions (default 4). */
  maxConcurrentModelCalls?: number;
  /** Read before each turn, so the agent follows what the user exposed to Assist. */
  exposure?: { refresh(): Promise<void> };
  /** How long an action waits for a person at least (approval_timeout_s); default 600 s. */
  approvalTimeoutMs?: number;
  /** The personas a session may take on, resolved against the agent's view of the home. */
  personas?: TurnPersonas;
}

export interface SendArgs {
  sessionId: string;
  message: string;
  allowTools?: boolean;
  timeBudgetMs?: number;
  idempotencyKey?: string;
  /** Another model of the configured provider for this turn; refused in a session that fixes its model. */
  model?: string;
  /** Streams the model's text: `partial` events, and `streaming` while text arrives. */
  stream?: boolean;
}
