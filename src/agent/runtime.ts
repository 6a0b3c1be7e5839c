import { PersonaError } from "../personas/index.js";
import type { HomeIndex } from "../indexer/index.js";
import { ModelNotAllowedError, type ModelClient, type ModelSource } from "../models/index.js";
import type { Clock, Logger, Monotonic, Principal } from "../shared/index.js";
import { describeError, loggedClockJumps, systemMonotonic, type ClockJumps } from "../shared/index.js";
import {
  approvalExpired,
  ContinuationFinalError,
  NotFoundError,
  SessionClosedError,
  TooManyOpenError,
  isFinalStatus,
  type ContinuationRecord,
  type MessageRef,
  type PendingApproval,
  type Store,
} from "../store/index.js";
import type { ActuationCeiling, AgentService, ApprovalAnswer, ToolRegistry } from "../tools/index.js";
import { ApprovalDesk } from "./approval-desk.js";
import { AgentError } from "./errors.js";
import { AgentEvents, type AgentEvent } from "./events.js";
import { watchSession } from "./event-replay.js";
import { parseEventId } from "./events.js";
import { executeContinuation, finalPayload, type StreamedText, type TurnPersonas } from "./execute-continuation.js";
import { FairGate } from "./fair-gate.js";
import { gatedModel } from "./gated-model.js";
import { ApprovalDeadlines, expiredEarlier, expiredError, expireWaitingTurn } from "./approval-expiry.js";
import { readJournal } from "./journal.js";
import { storeJournal } from "./store-journal.js";
import { turnModel } from "./turn-model.js";

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

/** How long `approve` waits for the turn to journal the answer before it returns the turn as it is. */
const ANSWER_TAKEN_MS = 10_000;

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


interface Running {
  sessionId: string;
  cancel: AbortController;
  /** Aborted when a shutdown's deadline passes: the turn stops mid-step and stays resumable. */
  interrupt: AbortController;
  done: Promise<ContinuationRecord>;
  streamed?: StreamedText;
}

/**
 * Owns all running work: one mailbox per session (the store's open-turn
 * limit makes it single-flight), a fair program-wide limit on model calls,
 * and a drain that leaves unfinished turns resumable.
 */
export class AgentRuntime implements AgentService {
  readonly events: AgentEvents;
  readonly #gate: FairGate;
  readonly #running = new Map<string, Running>();
  readonly #ephemeral = new Set<string>();
  readonly #drain = new AbortController();
  readonly #desk: ApprovalDesk;
  /** Deadlines of waiting turns that could not be taken up: each ends its turn if no one ran it by then. */
  readonly #deadlines: ApprovalDeadlines;

  constructor(private readonly options: AgentRuntimeOptions) {
    this.events = new AgentEvents(() => options.clock.now());
    this.#gate = new FairGate(options.maxConcurrentModelCalls ?? 4);
    const { clock, logger } = options;
    const monotonic = options.monotonic ?? systemMonotonic;
    const jumps = options.jumps ?? loggedClockJumps({ clock, monotonic, logger });
    const timing = {
      clock,
      monotonic,
      jumps,
      ...(options.deadlineCheckMs ? { checkMs: options.deadlineCheckMs } : {}),
      // Approvals carried over a restart count their time left from what the data last saw, when the clock is behind it.
      ...(options.store.lastSeenAt === undefined ? {} : { carriedFrom: options.store.lastSeenAt }),
    };
    this.#deadlines = new ApprovalDeadlines(timing);
    this.#desk = new ApprovalDesk({ store: options.store, ...timing, approvalTimeoutMs: options.approvalTimeoutMs ?? 600_000 });
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
    const model = await this.#modelFor(modelName, principal);
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
      created = await create().catch(async (err: unknown) => (err instanceof TooManyOpenError && (await this.#expireOverdue(principal, args.sessionId)) ? create() : Promise.reject(err)));
    } catch (err) {
      if (err instanceof TooManyOpenError) {
        const open = this.options.store.sessions.get(principal.id, args.sessionId)?.openContinuations[0];
        throw new AgentError("busy", `Session ${args.sessionId} is still working on continuation ${open ?? "(unknown)"}. Await it with ha_agent_await_continuation or cancel it with ha_agent_cancel, then send again.`);
      }
      throw err;
    }
    if (created.created) this.#start(principal, created.continuation, model);
    return created;
  }

  /** A one-shot question in a session of its own that ends when the answer is in. */
  async ask(principal: Principal, args: Parameters<AgentService["ask"]>[1]): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    this.#refuseWhileDraining();
    await this.#modelFor(args.model, principal);
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
    this.#ephemeral.add(session.id);
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
    const model = await this.#modelFor(session ? turnModel(record.request, session) : record.request.model, { isAdmin: record.request.ownerIsAdmin });
    const running = await this.options.store.continuations.update(principal.id, continuationId, { status: "running" });
    this.#start(principal, running, model);
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
      await this.#expire(principal, record, pending);
      throw expiredError(pending.id, pending.expiresAt);
    }
    const outcome = { decision: answer.decision, by: principal.id, via: answer.via, at, ...(answer.reason ? { reason: answer.reason } : {}) };
    // Taken up first: a turn that cannot run (no model yet) keeps its approval open for a later answer.
    if (!this.#running.has(answer.continuationId)) await this.#takeUp(principal, record);
    const handed = this.#desk.answer(answer.continuationId, answer.approvalId, outcome);
    if (!handed.accepted) throw new AgentError("no_pending_approval", `Approval ${answer.approvalId} was already answered; await the turn to see how it goes on.`);
    let timer: NodeJS.Timeout | undefined;
    const decision = await Promise.race([handed.taken, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ANSWER_TAKEN_MS)))]);
    clearTimeout(timer);
    if (decision?.decision === "expired") throw expiredError(pending.id, pending.expiresAt);
    return this.#owned(principal, answer.continuationId);
  }

  /** Ends the session's open turn if it waits on an approval past its deadline by the wall clock; true when it did. */
  async #expireOverdue(principal: Principal, sessionId: string): Promise<boolean> {
    const open = this.options.store.sessions.get(principal.id, sessionId)?.openContinuations[0];
    const record = open ? await this.options.store.continuations.get(principal.id, open) : undefined;
    const pending = record?.status === "input_required" ? record.approval : undefined;
    if (!record || !pending || !approvalExpired(pending, this.options.clock.now())) return false;
    await this.#expire(principal, record, pending);
    return true;
  }

  /** Ends a turn whose approval's deadline has passed: the running turn is told now, one no one runs is ended here. */
  async #expire(principal: Principal, record: ContinuationRecord, pending: PendingApproval): Promise<void> {
    const running = this.#running.get(record.id);
    if (!running) return this.#expireIdle(principal.id, record, pending);
    // At its wait, it journals the expiry now; still replaying towards it, its timer fires at once.
    this.#desk.expire(record.id, pending.id);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([running.done.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ANSWER_TAKEN_MS)))]);
    clearTimeout(timer);
  }

  /** Ends a waiting turn that no one runs; it counts as running meanwhile, so nothing takes it up halfway. */
  async #expireIdle(owner: string, record: ContinuationRecord, pending: PendingApproval): Promise<void> {
    if (this.#running.has(record.id)) return;
    const { store, clock } = this.options;
    const done = expireWaitingTurn({ store, clock, events: this.events }, { owner, record, pending });
    this.#running.set(record.id, { sessionId: record.sessionId, cancel: new AbortController(), interrupt: new AbortController(), done });
    try {
      await done;
    } finally {
      this.#running.delete(record.id);
    }
  }

  /**
   * Takes up the turns that were waiting for a person when the program
   * stopped (boot recovery lists them): they wait again, with the same
   * approval and the same deadline. One that cannot be taken up (no model
   * yet) still ends at its deadline; one whose deadline has passed ends now.
   */
  async takeUpWaiting(waiting: readonly { owner: string; continuationId: string }[]): Promise<void> {
    for (const { owner, continuationId } of waiting) {
      const record = await this.options.store.continuations.get(owner, continuationId);
      if (!record || record.status !== "input_required" || this.#running.has(continuationId)) continue;
      const logger = this.options.logger;
      if (record.approval && approvalExpired(record.approval, this.options.clock.now())) {
        await this.#expireIdle(owner, record, record.approval).catch((err: unknown) => logger.warn({ continuation: continuationId, err: describeError(err) }, "a turn whose approval expired could not be ended; the next start ends it"));
        continue;
      }
      // The turn runs for its owner, an administrator or not as its request recorded (#start).
      const principal: Principal = { id: owner, name: owner, kind: owner.startsWith("addon:") ? "addon" : "user", isAdmin: false };
      await this.#takeUp(principal, record).catch((err: unknown) => {
        logger.warn({ continuation: continuationId, err: describeError(err) }, "a turn waiting for approval could not be taken up; it is taken up when the approval is answered, and ends at its deadline if no one does");
        if (record.approval) this.#endAtDeadline(owner, continuationId, record.approval);
      });
    }
  }

  /** Ends a waiting turn no one could take up once its deadline passes, unless it runs or was answered by then. */
  #endAtDeadline(owner: string, continuationId: string, pending: PendingApproval): void {
    const due = async () => {
      if (this.#drain.signal.aborted) return;
      const record = await this.options.store.continuations.get(owner, continuationId);
      if (record?.status !== "input_required" || record.approval?.id !== pending.id) return;
      await this.#expireIdle(owner, record, pending);
    };
    this.#deadlines.at(pending, () =>
      due().catch((err: unknown) => this.options.logger.warn({ continuation: continuationId, err: describeError(err) }, "a turn whose approval expired could not be ended; the next start ends it")),
    );
  }

  async #takeUp(principal: Principal, record: ContinuationRecord): Promise<void> {
    this.#refuseWhileDraining();
    const session = this.options.store.sessions.get(principal.id, record.sessionId);
    // Judged as the owner was when the message was sent, as the turn runs (#start).
    const model = await this.#modelFor(session ? turnModel(record.request, session) : record.request.model, { isAdmin: record.request.ownerIsAdmin });
    if (!this.#running.has(record.id)) this.#start(principal, record, model);
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
    this.#deadlines.clear();
    const all = [...this.#running.values()];
    if (!all.length) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
    await Promise.race([Promise.all(all.map((r) => r.done.catch(() => undefined))), deadline]);
    clearTimeout(timer);
    for (const r of this.#running.values()) r.interrupt.abort(new Error("shutdown"));
    await Promise.race([Promise.all(all.map((r) => r.done.catch(() => undefined))), new Promise((r) => setTimeout(r, 1_000))]);
  }

  /** Every turn reads Home Assistant as its owner was when the message was sent, whoever takes it up (a restart, an answer from the console). */
  #start(caller: Principal, continuation: ContinuationRecord, model: ModelClient): void {
    const store = this.options.store;
    const principal: Principal = { ...caller, isAdmin: continuation.request.ownerIsAdmin };
    const session = store.sessions.get(principal.id, continuation.sessionId)!;
    const cancel = new AbortController();
    const interrupt = new AbortController();
    const streamed: StreamedText | undefined = continuation.request.stream ? { text: "", active: false } : undefined;
    const approvals = this.#desk.gate({ owner: principal.id, continuationId: continuation.id, timeBudgetMs: continuation.request.timeBudgetMs ?? session.budgets.maxDurationMs, model: `${model.provider}/${model.model}` });
    const done = executeContinuation(
      { ...this.options, events: this.events },
      { principal, session, continuation, model: gatedModel(model, this.#gate, session.id), signal: cancel.signal, drain: this.#drain.signal, interrupt: interrupt.signal, approvals, ...(streamed ? { streamed } : {}) },
    ).catch((err: unknown) => this.#failed(principal, continuation.id, err));
    const entry: Running = { sessionId: session.id, cancel, interrupt, done, ...(streamed ? { streamed } : {}) };
    this.#running.set(continuation.id, entry);
    void done
      .catch(() => undefined)
      .finally(async () => {
        this.#running.delete(continuation.id);
        this.#desk.forget(continuation.id);
        if (this.#ephemeral.delete(session.id)) {
          await store.sessions.end(principal.id, session.id, "ask answered").catch(() => undefined);
        }
      });
  }

  /**
   * Marks a turn failed when its run threw outside the loop (its memory or
   * its final write could not be read or written). Left running, it would
   * keep its session busy and its callers waiting until a restart.
   */
  async #failed(principal: Principal, continuationId: string, err: unknown): Promise<ContinuationRecord> {
    const logger = this.options.logger;
    logger.error({ continuation: continuationId, err: describeError(err) }, "a turn ended with an error");
    const error = { code: "internal", message: `The turn stopped on an error: ${describeError(err)}. Send it again with ha_agent_retry; if this repeats, check the add-on's log.` };
    try {
      return await this.options.store.continuations.update(principal.id, continuationId, { status: "failed", error });
    } catch (again) {
      logger.error({ continuation: continuationId, err: describeError(again) }, "the turn could not be marked failed either; the next start marks it interrupted");
      throw err;
    }
  }

  /**
   * The client for a turn's model, once the owner's rules let this caller
   * use it. A refusal is thrown as it is, naming the option to change; any
   * other failure to set the model up is `no_model`.
   */
  async #modelFor(name: string | undefined, caller: { isAdmin: boolean }): Promise<ModelClient> {
    this.options.models.check(name, caller);
    const model = await this.options.models.get(name).catch((err: unknown) => {
      if (err instanceof ModelNotAllowedError) throw err;
      return undefined;
    });
    if (!model) throw new AgentError("no_model", this.options.models.missing());
    return model;
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
