import type { Principal } from "../../shared/index.js";
import type { ContinuationRecord } from "../../store/index.js";

/** What the agent tools need from the runtime; `src/agent`'s AgentRuntime provides it. */
export interface AgentService {
  send(principal: Principal, args: { sessionId: string; message: string; allowTools?: boolean; timeBudgetMs?: number; idempotencyKey?: string; model?: string; plannerHints?: Record<string, unknown> }): Promise<{ continuation: ContinuationRecord; created: boolean }>;
  ask(principal: Principal, args: { message: string; allowTools?: boolean; model?: string; budgets?: { maxSteps?: number; maxToolCalls?: number; maxTokensPerTurn?: number } }): Promise<{ continuation: ContinuationRecord; created: boolean }>;
  wait(principal: Principal, continuationId: string, timeoutMs: number, onEvent?: (event: { type: string; payload: { message?: string; step?: { type: string } } }) => void, signal?: AbortSignal): Promise<ContinuationRecord>;
  cancel(principal: Principal, continuationId: string, reason?: string): Promise<"cancelled" | "not_found" | "already_final">;
  resume(principal: Principal, continuationId: string): Promise<ContinuationRecord>;
  retry(principal: Principal, continuationId: string): Promise<{ continuation: ContinuationRecord; created: boolean }>;
}
