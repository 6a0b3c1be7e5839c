import type { ModelClient } from "../models/index.js";
import { describeError, type Principal } from "../shared/index.js";
import type { ContinuationRecord } from "../store/index.js";
import type { ApprovalDesk } from "./approval-desk.js";
import type { AgentEvents } from "./events.js";
import { executeContinuation, type StreamedText } from "./execute-continuation.js";
import type { FairGate } from "./fair-gate.js";
import { gatedModel } from "./gated-model.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";
import type { Running, RunningTurns } from "./running-turns.js";

/** What starting a turn needs from the runtime that holds it. */
export interface TurnStartDeps {
  options: AgentRuntimeOptions;
  events: AgentEvents;
  desk: ApprovalDesk;
  gate: FairGate;
  drain: AbortSignal;
  running: RunningTurns;
  /** Sessions made by `ask`: each ends once its one turn does. */
  ephemeral: Set<string>;
}

/** Every turn reads Home Assistant as its owner was when the message was sent, whoever takes it up (a restart, an answer from the console). */
export function startTurn(deps: TurnStartDeps, args: { caller: Principal; continuation: ContinuationRecord; model: ModelClient }): void {
  const { options, events, desk, gate, drain, running, ephemeral } = deps;
  const { caller, continuation, model } = args;
  const store = options.store;
  const principal: Principal = { ...caller, isAdmin: continuation.request.ownerIsAdmin };
  const session = store.sessions.get(principal.id, continuation.sessionId)!;
  const cancel = new AbortController();
  const interrupt = new AbortController();
  const streamed: StreamedText | undefined = continuation.request.stream ? { text: "", active: false } : undefined;
  const approvals = desk.gate({ owner: principal.id, continuationId: continuation.id, timeBudgetMs: continuation.request.timeBudgetMs ?? session.budgets.maxDurationMs, model: `${model.provider}/${model.model}` });
  const done = executeContinuation(
    { ...options, events },
    { principal, session, continuation, model: gatedModel(model, gate, session.id), signal: cancel.signal, drain, interrupt: interrupt.signal, approvals, ...(streamed ? { streamed } : {}) },
  ).catch((err: unknown) => markFailed({ options, principal, continuationId: continuation.id, err }));
  const entry: Running = { sessionId: session.id, cancel, interrupt, done, ...(streamed ? { streamed } : {}) };
  running.set(continuation.id, entry);
  void done
    .catch(() => undefined)
    .finally(async () => {
      running.delete(continuation.id);
      desk.forget(continuation.id);
      if (ephemeral.delete(session.id)) {
        await store.sessions.end(principal.id, session.id, "ask answered").catch(() => undefined);
      }
    });
}

/**
 * Marks a turn failed when its run threw outside the loop (its memory or
 * its final write could not be read or written). Left running, it would
 * keep its session busy and its callers waiting until a restart.
 */
async function markFailed(args: { options: Pick<AgentRuntimeOptions, "store" | "logger">; principal: Principal; continuationId: string; err: unknown }): Promise<ContinuationRecord> {
  const { options, principal, continuationId, err } = args;
  const logger = options.logger;
  logger.error({ continuation: continuationId, err: describeError(err) }, "a turn ended with an error");
  const error = { code: "internal", message: `The turn stopped on an error: ${describeError(err)}. Send it again with ha_agent_retry; if this repeats, check the add-on's log.` };
  try {
    return await options.store.continuations.update(principal.id, continuationId, { status: "failed", error });
  } catch (again) {
    logger.error({ continuation: continuationId, err: describeError(again) }, "the turn could not be marked failed either; the next start marks it interrupted");
    throw err;
  }
}

