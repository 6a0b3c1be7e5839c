import type { Clock } from "../shared/index.js";
import { HaAgentError, describeError } from "../shared/index.js";
import type { ConversationItem, ModelClient, ToolCall } from "../models/index.js";
import type { PendingApproval } from "../store/index.js";
import type { AgentTool } from "./agent-tool.js";
import type { ApprovalGate } from "./approval-gate.js";
import { expiredNote } from "./approval-step.js";
import type { ContentProvider } from "./content-provider.js";
import type { TurnJournal } from "./journal.js";
import type { WrapUpBudget } from "./records.js";
import type { ReplayState, TurnCounters } from "./replay.js";
import type { BudgetName, TurnBudgets } from "./stop-conditions.js";

/** What the loop reports while it works; the runtime adds the session and continuation ids. */
export type LoopEvent =
  | { type: "progress"; message: string }
  /** `number` is the model step the event belongs to, as journaled. */
  | { type: "step"; step: { type: string; number: number; detail: unknown }; message?: string }
  | { type: "partial"; text: string };

export type TurnOutcome =
  | { status: "completed"; text: string; note?: string; budget?: BudgetName; counters: TurnCounters }
  /** `code`: why, when not the time budget (`approval_expired`). */
  | { status: "expired"; note: string; code?: string; counters: TurnCounters }
  | { status: "cancelled"; counters: TurnCounters }
  /** Stopped at a step boundary for a shutdown; `resume` continues it. */
  | { status: "interrupted"; counters: TurnCounters }
  /** Stopped by a shutdown while an action waited for a person: it goes on waiting after the restart. */
  | { status: "input_required"; counters: TurnCounters }
  | { status: "failed"; error: { code: string; message: string }; counters: TurnCounters };

export interface RunTurnOptions {
  continuationId: string;
  model: ModelClient;
  /** Session registers become the system instruction; consumable ones are delivered once. */
  context: ContentProvider;
  /** What comes before the turn's own steps: remembered messages, then the user's message. */
  prompt: ConversationItem[];
  /** Empty when the turn may not use tools. */
  tools: AgentTool[];
  budgets: TurnBudgets;
  journal: TurnJournal;
  clock: Clock;
  /** Cancellation: final. */
  signal: AbortSignal;
  /** A shutdown: the turn stops at the next step boundary and is left resumable. */
  drain?: AbortSignal;
  /** A shutdown past its deadline: the turn stops now, mid-step, and is left resumable. */
  interrupt?: AbortSignal;
  describeUnknownOutcome(call: ToolCall): Promise<string>;
  /** Where actions wait for a person's yes. */
  approvals?: ApprovalGate;
  emit?(event: LoopEvent): void;
  maxOutputTokens?: number;
}

/** One turn in progress: what replay found, and what the steps add to it. */
export interface Turn {
  options: RunTurnOptions;
  /** The options' journal, whose write failures end the turn as a storage failure. */
  journal: TurnJournal;
  state: ReplayState;
  counters: TurnCounters;
  /** The turn's own conversation: replayed items, then each new model turn and its results. */
  items: ConversationItem[];
  /** The prompt with the retrieval snippets in front of the user's message. */
  head: ConversationItem[];
  toolMap: ReadonlyMap<string, AgentTool>;
  /** Aborts model and tool calls: a cancel, or a shutdown past its deadline. */
  stop: AbortSignal;
  emit(event: LoopEvent): void;
  /** A shutdown came while an action waited for a person: the turn keeps waiting after the restart. */
  parked?: boolean;
  /** An approval no one answered in time: the turn ends `expired`. */
  expiredApproval?: PendingApproval;
}

/** A journal write failed: the turn cannot go on safely, and ends failed with what it spent. */
export class JournalWriteError extends Error {
  constructor(readonly failure: unknown) {
    super(describeError(failure), { cause: failure });
  }

  /** The continuation's error: the store's own code and advice when it gave one. */
  toTurnError(): { code: string; message: string } {
    const code = this.failure instanceof HaAgentError ? this.failure.code : "storage_error";
    return { code, message: `The turn's step log could not be written, so it stopped: ${this.message}` };
  }
}

/** The journal as the loop uses it: a failed append becomes a JournalWriteError. */
export function guardedJournal(journal: TurnJournal): TurnJournal {
  return {
    append: (entry, options) =>
      journal.append(entry, options).catch((err: unknown) => {
        throw new JournalWriteError(err);
      }),
    read: () => journal.read(),
  };
}

/** How the turn ends if it was stopped: cancelled is final, a shutdown leaves it resumable. */
export function stoppedOutcome(turn: Turn): TurnOutcome | undefined {
  const { signal, interrupt, drain } = turn.options;
  if (signal.aborted) return { status: "cancelled", counters: turn.counters };
  if (interrupt?.aborted || drain?.aborted) return { status: "interrupted", counters: turn.counters };
  return undefined;
}

/** How the turn ends after its tool calls, if they stopped it: a cancel, a shutdown, or an approval no one answered. */
export function afterCalls(turn: Turn): TurnOutcome | undefined {
  const expired = turn.expiredApproval;
  if (expired) return { status: "expired", note: expiredNote(expired), code: "approval_expired", counters: turn.counters };
  if (turn.parked && !turn.options.signal.aborted) return { status: "input_required", counters: turn.counters };
  return turn.stop.aborted ? stoppedOutcome(turn) : undefined;
}

export function completed(turn: Turn, text: string, note?: string, budget?: WrapUpBudget): TurnOutcome {
  return { status: "completed", text, counters: turn.counters, ...(note ? { note } : {}), ...(budget ? { budget } : {}) };
}
