import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord, MessageRef } from "../../store/index.js";

/** An event of a running turn, as the agent tools read it. */
export interface AgentServiceEvent {
  type: string;
  payload: {
    message?: string;
    /** `number` is the model step the event belongs to, as journaled. */
    step?: { type: string; number?: number };
  };
}

/** Limits a caller may set for one question. */
export interface AskBudgets {
  maxSteps?: number;
  maxToolCalls?: number;
  maxTokensPerTurn?: number;
}

/** What the agent tools need from the runtime; `src/agent`'s AgentRuntime provides it. Refusals are thrown as HaAgentErrors with a code. */
export interface AgentService {
  send(principal: Principal, args: { sessionId: string; message: string; allowTools?: boolean; timeBudgetMs?: number; idempotencyKey?: string; model?: string; stream?: boolean }): Promise<{ continuation: ContinuationRecord; created: boolean }>;
  ask(principal: Principal, args: { message: string; allowTools?: boolean; model?: string; budgets?: AskBudgets; stream?: boolean }): Promise<{ continuation: ContinuationRecord; created: boolean }>;
  /** The continuation as it is now; another principal's is not found (NotFoundError), like an id that never existed. */
  get(principal: Principal, continuationId: string): Promise<ContinuationRecord>;
  /** The principal's continuations, newest first, a page at a time. */
  list(principal: Principal, options?: { limit?: number; cursor?: string }): Promise<{ continuations: MessageRef[]; nextCursor?: string }>;
  wait(principal: Principal, continuationId: string, timeoutMs: number, onEvent?: (event: AgentServiceEvent) => void, signal?: AbortSignal): Promise<ContinuationRecord>;
  /** What a turn sent with `stream` has said so far, while its text arrives; undefined otherwise. */
  streaming?(continuationId: string): string | undefined;
  /** Cancelled now or before; a turn that finished otherwise is refused as `already_final`. */
  cancel(principal: Principal, continuationId: string, reason?: string): Promise<ContinuationRecord>;
  resume(principal: Principal, continuationId: string): Promise<ContinuationRecord>;
  retry(principal: Principal, continuationId: string): Promise<{ continuation: ContinuationRecord; created: boolean }>;
}
