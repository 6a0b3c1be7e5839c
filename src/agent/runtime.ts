import { PersonaError } from "../personas/index.js";
import type { Principal } from "../shared/index.js";
import {
  approvalExpired,
  ContinuationFinalError,
  NotFoundError,
  SessionClosedError,
  TooManyOpenError,
  isFinalStatus,
  type ContinuationRecord,
  type MessageRef,
} from "../store/index.js";
import type { AgentService, ApprovalAnswer } from "../tools/index.js";
import { ApprovalDesk } from "./approval-desk.js";
import { expiredEarlier, expiredError } from "./approval-expiry.js";
import { AgentError } from "./errors.js";
import { AgentEvents, type AgentEvent } from "./events.js";
import { watchSession } from "./event-replay.js";
import { parseEventId } from "./events.js";
import { finalPayload } from "./execute-continuation.js";
import { FairGate } from "./fair-gate.js";
import { readJournal } from "./journal.js";
import { modelFor } from "./model-for.js";
import type { AgentRuntimeOptions, SendArgs } from "./runtime-options.js";
import { runtimeTiming } from "./runtime-timing.js";
import { ANSWER_TAKEN_MS, settledWithin, type RunningTurns } from "./running-turns.js";
import { storeJournal } from "./store-journal.js";
import { takeUpWaiting } from "./take-up-waiting.js";
import { TurnExpiry } from "./turn-expiry.js";
import { turnModel } from "./turn-model.js";
import { startTurn, type TurnStartDeps } from "./turn-start.js";

export type { AgentModels, AgentRuntimeOptions, SendArgs } from "./runtime-options.js";

/**
 * Owns all running work: one mailbox per session (the store's open-turn
 * limit makes it single-flight), a fair program-wide limit on model calls,
 * and a drain that leaves unfinished turns resumable.
 */
export class AgentRuntime implements AgentService {
  readonly events: AgentEvents;
  readonly #running: RunningTurns = new Map();
  readonly #drain = new AbortController();
  readonly #desk: ApprovalDesk;
  /** Ends turns whose approval's deadline passed, and holds the timers of those no one could take up. */
  readonly #expiry: TurnExpiry;
  readonly #starting: TurnStartDeps;

  constructor(private readonly options: AgentRuntimeOptions) {
    this.events = new AgentEvents(() => options.clock.now());
    const timing = runtimeTiming(options);
    this.#desk = new ApprovalDesk({ store: options.store, ...timing, approvalTimeoutMs: options.approvalTimeoutMs ?? 600_000 });
    const { store, clock, logger } = options;
    this.#expiry = new TurnExpiry({ store, clock, logger, events: this.events, desk: this.#desk, running: this.#running, drain: this.#drain.signal, timing });
    this.#starting = {
      options,
      events: this.events,
      desk: this.#desk,
      gate: new FairGate(options.maxConcurrentModelCalls ?? 4),
      drain: this.#drain.signal,
      running: this.#running,
      ephemeral: new Set<string>(),
    };
  }

  get runningCount(): number {
    return this.#running.size;
  }

  /** Creates a continuation and starts it; a repeated idempotency key returns the first one. */
  async send(principal: Principal, args: SendArgs): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    return this.#send(principal, args);
  }

  /**
   * The one way a turn is created. Its model is decided here, once, under
   * the session's policy, and kept in the request: resume and retry run on
   * it and take no model from anywhere else.
   */
  async #send(principal: Principal, args: SendArgs & { retryOf?: string }): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    this.#refuseWhileDraining();
    const session = this.options.store.sessions.get(principal.id, args.sessionId);
    if (!session) throw new NotFoundError("session", args.sessionId);
    if (session.status !== "active") throw new SessionClosedError(args.sessionId, session.status);
    if (args.model && session.policy.enforceFixedModel && args.model !== session.model.name) {
      throw new AgentError("model_fixed", `This session's policy fixes its model (enforce_fixed_model); send the message without "model", or start a session without that policy.`);
    }
    const modelName = args.model ?? session.model.name;
    // A session's stored model is checked again: the options may have changed since it was started.
    const model = await modelFor({ models: this.options.models, name: modelName, caller: principal });
    const create = () =>
      this.options.store.continuations.create(principal.id, args.sessionId, {
        message: args.message,
        allowTools: args.allowTools ?? true,
        ownerIsAdmin: principal.isAdmin,
        ...(args.timeBudgetMs ? { timeBudgetMs: args.timeBudgetMs } : {}),
        ...(args.idempotencyKey ? { idempotencyKey: args.idempotencyKey } : {}),
        ...(modelName ? { model: modelName } : {}),
        ...(args.retryOf ? { retryOf: args.retryOf } : {}),
        ...(args.stream ? { stream: true } : {}),
      });
    let created: { continuation: ContinuationRecord; created: boolean };
    try {
      // The open turn may wait on an approval whose deadline the wall clock has just passed (a jump): end it, then try again.
      created = await create().catch(async (err: unknown) => (err instanceof TooManyOpenError && (await this.#expiry.overdue(principal.id, args.sessionId)) ? create() : Promise.reject(err)));
    } catch (err) {
      if (err instanceof TooManyOpenError) {
        const open = this.options.store.sessions.get(principal.id, args.sessionId)?.openContinuations[0];
        throw new AgentError("busy", `Session ${args.sessionId} is still working on continuation ${open ?? "(unknown)"}. Await it with ha_agent_await_continuation or cancel it with ha_agent_cancel, then send again.`);
      }
      throw err;
    }
    if (created.created) startTurn(this.#starting, { caller: principal, continuation: created.continuation, model });
    return created;
  }

  /** A one-shot question in a session of its own that ends when the answer is in. */
  async ask(principal: Principal, args: Parameters<AgentService["ask"]>[1]): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    this.#refuseWhileDraining();
    await modelFor({ models: this.options.models, name: args.model, caller: principal });
    if (args.persona) {
      if (!this.options.personas) throw new PersonaError("unknown_persona", `persona: this add-on offers no personas, so "${args.persona.name}" cannot be used; leave persona out.`);
      this.options.personas.registry.check(args.persona);
    }
    const session = await this.options.store.sessions.create({
      owner: principal.id,
      ...(args.budgets ? { budgets: args.budgets } : {}),
      ...(args.model ? { model: { name: args.model } } : {}),
      ...(args.approval ?? this.options.ceiling.defaultApproval ? { policy: { approval: args.approval ?? this.options.ceiling.defaultApproval } } : {}),
      ...(args.persona ? { persona: args.persona } : {}),
    });
    this.#starting.ephemeral.add(session.id);
    return this.send(principal, { ...args, sessionId: session.id });
  }

  /** The continuation as it is now; another principal's is not found, like an unknown id. */
  async get(principal: Principal, continuationId: string): Promise<ContinuationRecord> {
    return this.#owned(principal, continuationId);
  }

  /** The principal's continuations, newest first, a page at a time. */
  async list(principal: Principal, options: { limit?: number; cursor?: string } = {}): Promise<{ continuations: MessageRef[]; nextCursor?: string }> {
    return this.options.store.continuations.listOwned(principal.id, options);
  }

  /**
   * Waits up to `timeoutMs` for the continuation to finish, reporting its
   * events, then returns it as it is: final, or still running.
   */
  async wait(principal: Principal, continuationId: string, timeoutMs: number, onEvent?: (event: AgentEvent) => void, signal?: AbortSignal): Promise<ContinuationRecord> {
    const record = await this.#owned(principal, continuationId);
    const running = this.#running.get(continuationId);
    // A turn that waits for a person answers at once: the caller has someone to ask.
    if (!running || record.status === "input_required") return record;
    let asked: () => void = () => {};
    const unsubscribe = onEvent ? this.events.subscribe(record.sessionId, (e) => e.continuation_id === continuationId && onEvent(e)) : () => {};
    // Once the turn waits for a person, its record says so: the caller hears it now, not at its timeout.
    const unwatch = this.#desk.onWaiting(continuationId, () => asked());
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        running.done.catch(() => undefined),
        new Promise<void>((resolve) => {
          asked = resolve;
          timer = setTimeout(resolve, timeoutMs);
          signal?.addEventListener("abort", () => resolve(), { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      unsubscribe();
      unwatch();
    }
    return this.#owned(principal, continuationId);
  }

  /**
   * What a streamed turn's model has said so far in the call under way, while
   * its text arrives; undefined otherwise.
   */
  streaming(continuationId: string): string | undefined {
    const streamed = this.#running.get(continuationId)?.streamed;
    return streamed?.active ? streamed.text : undefined;
  }

  /**
   * Subscribes to one of the principal's sessions: undefined when it has no
   * such session. `lastEventId` replays what was missed after it; without
   * one, the open turn is replayed from its start.
   */
  async watch(principal: Principal, args: { sessionId: string; lastEventId?: string; listener: (event: AgentEvent) => void }): Promise<(() => void) | undefined> {
    if (!this.options.store.sessions.get(principal.id, args.sessionId)) return undefined;
    return watchSession({ store: this.options.store, events: this.events, owner: principal.id, sessionId: args.sessionId, from: parseEventId(args.lastEventId), listener: args.listener });
  }

  /**
   * Cancels within a second: the model stream and running tools are aborted.
   * Final, also after a restart. Cancelling a cancelled turn answers the
   * same; a turn that finished otherwise is refused as already final.
   */
  async cancel(principal: Principal, continuationId: string, reason?: string): Promise<ContinuationRecord> {
    const record = await this.#owned(principal, continuationId);
    if (record.status === "cancelled") return record;
    if (isFinalStatus(record.status)) throw new ContinuationFinalError(continuationId, record.status);
    const running = this.#running.get(continuationId);
    if (running) {
      running.cancel.abort(new Error(reason ?? "cancelled"));
      const final = (await running.done.catch(() => undefined)) ?? (await this.#owned(principal, continuationId));
      if (final.status !== "cancelled") throw new ContinuationFinalError(continuationId, final.status);
      return final;
    }
    const cancelled = await this.options.store.continuations.update(principal.id, continuationId, { status: "cancelled", error: { code: "cancelled", message: reason ? `Cancelled: ${reason}` : "The turn was cancelled." } });
    // Its journal is complete: the final event goes after its last line, as a replay counts it.
    const seq = (await storeJournal(this.options.store, principal.id, continuationId).read()).length + 1;
    this.events.emit({ type: "final", session_id: cancelled.sessionId, continuation_id: continuationId, seq, payload: finalPayload(cancelled) });
    return cancelled;
  }

  /** Puts an interrupted turn back to work on the model it started with; it continues from its last journaled step. */
  async resume(principal: Principal, continuationId: string): Promise<ContinuationRecord> {
    this.#refuseWhileDraining();
    const record = await this.#owned(principal, continuationId);
    if (this.#running.has(continuationId) || isFinalStatus(record.status)) return record;
    if (record.status !== "interrupted") {
      throw new AgentError("not_resumable", `Continuation ${continuationId} is ${record.status}, not interrupted; await it instead.`);
    }
    const session = this.options.store.sessions.get(principal.id, record.sessionId);
    const model = await modelFor({ models: this.options.models, name: session ? turnModel(record.request, session) : record.request.model, caller: { isAdmin: record.request.ownerIsAdmin } });
    const running = await this.options.store.continuations.update(principal.id, continuationId, { status: "running" });
    startTurn(this.#starting, { caller: principal, continuation: running, model });
    return running;
  }

  /**
   * Answers the turn's pending approval. Only its owner can: another
   * principal's turn is not found. The deadline is part of the approval: an
   * answer at or after it is refused (`approval_expired`) and the turn ends
   * `expired`, also when no one runs it (no model since a restart). The turn
   * journals the decision before it acts on it; this resolves once it has
   * (or after a few seconds, with the turn as it is then). A turn not
   * running since a restart is started.
   */
  async approve(principal: Principal, answer: ApprovalAnswer): Promise<ContinuationRecord> {
    const record = await this.#owned(principal, answer.continuationId);
    const at = this.options.clock.now();
    const pending = record.status === "input_required" ? record.approval : undefined;
    if (pending?.id !== answer.approvalId) {
      if (await expiredEarlier({ store: this.options.store, owner: principal.id, record, approvalId: answer.approvalId })) throw expiredError(answer.approvalId, undefined);
      const now = pending ? `it waits for approval ${pending.id}` : `it is ${record.status} and waits for no approval`;
      throw new AgentError("no_pending_approval", `Continuation ${answer.continuationId} has no pending approval ${answer.approvalId}: ${now}. Await it with ha_agent_await_continuation to see what it waits for.`);
    }
    if (approvalExpired(pending, at)) {
      await this.#expiry.expire(principal.id, record, pending);
      throw expiredError(pending.id, pending.expiresAt);
    }
    const outcome = { decision: answer.decision, by: principal.id, via: answer.via, at, ...(answer.reason ? { reason: answer.reason } : {}) };
    // Taken up first: a turn that cannot run (no model yet) keeps its approval open for a later answer.
    if (!this.#running.has(answer.continuationId)) await this.#takeUp(principal, record);
    const handed = this.#desk.answer(answer.continuationId, answer.approvalId, outcome);
    if (!handed.accepted) throw new AgentError("no_pending_approval", `Approval ${answer.approvalId} was already answered; await the turn to see how it goes on.`);
    const decision = await settledWithin(handed.taken, ANSWER_TAKEN_MS);
    if (decision?.decision === "expired") throw expiredError(pending.id, pending.expiresAt);
    return this.#owned(principal, answer.continuationId);
  }

  /**
   * Takes up the turns that were waiting for a person when the program
   * stopped (boot recovery lists them): they wait again, with the same
   * approval and the same deadline. One that cannot be taken up (no model
   * yet) still ends at its deadline; one whose deadline has passed ends now.
   */
  async takeUpWaiting(waiting: readonly { owner: string; continuationId: string }[]): Promise<void> {
    const { store, clock, logger } = this.options;
    await takeUpWaiting({ store, clock, logger, running: this.#running, expiry: this.#expiry, takeUp: (principal, record) => this.#takeUp(principal, record) }, waiting);
  }

  async #takeUp(principal: Principal, record: ContinuationRecord): Promise<void> {
    this.#refuseWhileDraining();
    const session = this.options.store.sessions.get(principal.id, record.sessionId);
    // Judged as the owner was when the message was sent, as the turn runs (startTurn).
    const model = await modelFor({ models: this.options.models, name: session ? turnModel(record.request, session) : record.request.model, caller: { isAdmin: record.request.ownerIsAdmin } });
    if (!this.#running.has(record.id)) startTurn(this.#starting, { caller: principal, continuation: record, model });
  }

  /** A new continuation with the same request and model, linked to the old one, which stays as it was. */
  async retry(principal: Principal, continuationId: string): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    const record = await this.#owned(principal, continuationId);
    const session = this.options.store.sessions.get(principal.id, record.sessionId);
    const model = session ? turnModel(record.request, session) : undefined;
    return this.#send(principal, {
      sessionId: record.sessionId,
      message: record.request.message,
      allowTools: record.request.allowTools,
      ...(record.request.timeBudgetMs ? { timeBudgetMs: record.request.timeBudgetMs } : {}),
      ...(model ? { model } : {}),
      ...(record.request.stream ? { stream: true } : {}),
      retryOf: continuationId,
    });
  }

  /** One CompletionTrace per model call of a continuation, read from its journal. */
  async traces(owner: string, continuationId: string) {
    const records = await readJournal(storeJournal(this.options.store, owner, continuationId));
    return records.flatMap((r) => {
      if (r.type !== "model_response") return [];
      const d = r.detail;
      return [
        {
          step: d.step,
          model: `${d.turn.provider}/${d.turn.model}`,
          tokensIn: d.usage.inputTokens,
          tokensOut: d.usage.outputTokens,
          tokensThinking: d.usage.thinkingTokens,
          durationMs: d.durationMs,
          finishReason: d.finishReason,
          toolCalls: d.turn.toolCalls.map((c) => c.name),
        },
      ];
    });
  }

  /**
   * Stops taking work and lets running turns reach a step boundary. Turns
   * still running at the deadline are aborted; either way they end
   * `interrupted`, journaled and ready to resume.
   */
  async drain(deadlineMs: number): Promise<void> {
    this.#drain.abort();
    this.#expiry.clear();
    const all = [...this.#running.values()];
    if (!all.length) return;
    const ended = () => Promise.all(all.map((r) => r.done.catch(() => undefined)));
    await settledWithin(ended(), deadlineMs);
    for (const r of this.#running.values()) r.interrupt.abort(new Error("shutdown"));
    await settledWithin(ended(), 1_000);
  }

  async #owned(principal: Principal, continuationId: string): Promise<ContinuationRecord> {
    const record = await this.options.store.continuations.get(principal.id, continuationId);
    if (!record) throw new NotFoundError("continuation", continuationId);
    return record;
  }

  #refuseWhileDraining(): void {
    if (this.#drain.signal.aborted) throw new AgentError("shutting_down", "HA Agent is shutting down; send the message again in a moment.");
  }
}
