import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord, MessageRef, PersonaChoice } from "../../store/index.js";
import type { ApprovalChannel, ApprovalDecision } from "./approval-wire.js";

/** A person's answer to a pending approval. */
export interface ApprovalAnswer {
  continuationId: string;
  approvalId: string;
  decision: ApprovalDecision;
  reason?: string;
  via: ApprovalChannel;
}

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
  /** `approval: "ask"`: the question's session may act where the add-on allows, after a person's yes for each action. */
  ask(principal: Principal, args: { message: string; allowTools?: boolean; model?: string; budgets?: AskBudgets; stream?: boolean; approval?: "ask"; persona?: PersonaChoice }): Promise<{ continuation: ContinuationRecord; created: boolean }>;
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
  /**
   * Answers the turn's pending approval. Only the session's principal can
   * (another gets not_found); the decision is journaled before anything
   * acts on it. Resolves with the record once it is journaled. A turn that
   * waits for no such approval is refused as `no_pending_approval`.
   */
  approve(principal: Principal, answer: ApprovalAnswer): Promise<ContinuationRecord>;
  retry(principal: Principal, continuationId: string): Promise<{ continuation: ContinuationRecord; created: boolean }>;
}
