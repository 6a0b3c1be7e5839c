import type { HomeIndex } from "../indexer/index.js";
import type { ModelClient } from "../models/index.js";
import type { Clock, Logger, Principal } from "../shared/index.js";
import { describeError } from "../shared/index.js";
import { TooManyOpenError, isFinalStatus, type ContinuationRecord, type Store } from "../store/index.js";
import type { ActuationCeiling, ToolRegistry } from "../tools/index.js";
import { AgentError } from "./errors.js";
import { AgentEvents, type AgentEvent } from "./events.js";
import { executeContinuation } from "./execute-continuation.js";
import { FairGate } from "./fair-gate.js";
import { gatedModel } from "./gated-model.js";
import { ModelResponseDetailSchema } from "./records.js";
import { storeJournal } from "./store-journal.js";

/** Where the runtime gets a model: the configured one, or another of the same provider for a per-turn override. */
export interface ModelSource {
  get(name?: string): Promise<ModelClient | undefined>;
  /** Why no model can be had, naming the options to set. */
  missing(): string;
}

export interface AgentRuntimeOptions {
  store: Store;
  registry: ToolRegistry;
  index: HomeIndex;
  models: ModelSource;
  clock: Clock;
  logger: Logger;
  ceiling: ActuationCeiling;
  /** Model calls in flight across all sessions (default 4). */
  maxConcurrentModelCalls?: number;
  /** Read before each turn, so the agent follows what the user exposed to Assist. */
  exposure?: { refresh(): Promise<void> };
}

export interface SendArgs {
  sessionId: string;
  message: string;
  allowTools?: boolean;
  timeBudgetMs?: number;
  idempotencyKey?: string;
  model?: string;
  plannerHints?: Record<string, unknown>;
  retryOf?: string;
}

interface Running {
  sessionId: string;
  cancel: AbortController;
  /** Aborted when a shutdown's deadline passes: the turn stops mid-step and stays resumable. */
  interrupt: AbortController;
  done: Promise<ContinuationRecord>;
}

/**
 * Owns all running work: one mailbox per session (the store's open-turn
 * limit makes it single-flight), a fair program-wide limit on model calls,
 * and a drain that leaves unfinished turns resumable.
 */
export class AgentRuntime {
  readonly events: AgentEvents;
  readonly #gate: FairGate;
  readonly #running = new Map<string, Running>();
  readonly #ephemeral = new Set<string>();
  readonly #drain = new AbortController();

  constructor(private readonly options: AgentRuntimeOptions) {
    this.events = new AgentEvents(() => options.clock.now());
    this.#gate = new FairGate(options.maxConcurrentModelCalls ?? 4);
  }

  get runningCount(): number {
    return this.#running.size;
  }

  /** Creates a continuation and starts it; a repeated idempotency key returns the first one. */
  async send(principal: Principal, args: SendArgs): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    this.#refuseWhileDraining();
    const session = this.options.store.sessions.get(principal.id, args.sessionId);
    if (!session) throw new AgentError("not_found", `No session "${args.sessionId}" exists for you. Start one with ha_agent_start_session.`);
    if (session.status !== "active") throw new AgentError("session_closed", `Session ${args.sessionId} is ${session.status}. Start a new session with ha_agent_start_session.`);
    if (args.model && session.policy.enforceFixedModel && args.model !== session.model.name) {
      throw new AgentError("model_fixed", `This session's policy fixes its model (enforce_fixed_model); send the message without "model", or start a session without that policy.`);
    }
    const model = await this.#modelFor(args.model ?? session.model.name);
    let created: { continuation: ContinuationRecord; created: boolean };
    try {
      created = await this.options.store.continuations.create(principal.id, args.sessionId, {
        message: args.message,
        allowTools: args.allowTools ?? true,
        ...(args.timeBudgetMs ? { timeBudgetMs: args.timeBudgetMs } : {}),
        ...(args.idempotencyKey ? { idempotencyKey: args.idempotencyKey } : {}),
        ...(args.plannerHints || args.model || args.retryOf ? { plannerHints: { ...args.plannerHints, ...(args.model ? { model: args.model } : {}), ...(args.retryOf ? { retryOf: args.retryOf } : {}) } } : {}),
      });
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
  async ask(principal: Principal, args: Omit<SendArgs, "sessionId" | "idempotencyKey"> & { budgets?: { maxSteps?: number; maxToolCalls?: number; maxTokensPerTurn?: number } }) {
    this.#refuseWhileDraining();
    await this.#modelFor(args.model);
    const session = await this.options.store.sessions.create({ owner: principal.id, ...(args.budgets ? { budgets: args.budgets } : {}), ...(args.model ? { model: { name: args.model } } : {}) });
    this.#ephemeral.add(session.id);
    return this.send(principal, { ...args, sessionId: session.id });
  }

  /**
   * Waits up to `timeoutMs` for the continuation to finish, reporting its
   * events, then returns it as it is: final, or still running.
   */
  async wait(principal: Principal, continuationId: string, timeoutMs: number, onEvent?: (event: AgentEvent) => void, signal?: AbortSignal): Promise<ContinuationRecord> {
    const record = await this.#owned(principal, continuationId);
    const running = this.#running.get(continuationId);
    if (!running) return record;
    const unsubscribe = onEvent ? this.events.subscribe(record.sessionId, (e) => e.continuation_id === continuationId && onEvent(e)) : () => {};
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        running.done.catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
          signal?.addEventListener("abort", resolve, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      unsubscribe();
    }
    return this.#owned(principal, continuationId);
  }

  /** Cancels within a second: the model stream and running tools are aborted. Final, also after a restart. */
  async cancel(principal: Principal, continuationId: string, reason?: string): Promise<"cancelled" | "not_found" | "already_final"> {
    const record = await this.options.store.continuations.get(principal.id, continuationId);
    if (!record) return "not_found";
    if (isFinalStatus(record.status)) return "already_final";
    const running = this.#running.get(continuationId);
    if (running) {
      running.cancel.abort(new Error(reason ?? "cancelled"));
      const final = await running.done.catch(() => undefined);
      return final?.status === "cancelled" ? "cancelled" : "already_final";
    }
    await this.options.store.continuations.update(principal.id, continuationId, { status: "cancelled", error: { code: "cancelled", message: reason ? `Cancelled: ${reason}` : "The turn was cancelled." } });
    return "cancelled";
  }

  /** Puts an interrupted turn back to work; it continues from its last journaled step. */
  async resume(principal: Principal, continuationId: string): Promise<ContinuationRecord> {
    this.#refuseWhileDraining();
    const record = await this.#owned(principal, continuationId);
    if (this.#running.has(continuationId) || isFinalStatus(record.status)) return record;
    if (record.status !== "interrupted") {
      throw new AgentError("not_resumable", `Continuation ${continuationId} is ${record.status}, not interrupted; await it instead.`);
    }
    const session = this.options.store.sessions.get(principal.id, record.sessionId);
    const model = await this.#modelFor(modelOverride(record) ?? session?.model.name);
    const running = await this.options.store.continuations.update(principal.id, continuationId, { status: "running" });
    this.#start(principal, running, model);
    return running;
  }

  /** A new continuation with the same request, linked to the old one, which stays as it was. */
  async retry(principal: Principal, continuationId: string): Promise<{ continuation: ContinuationRecord; created: boolean }> {
    const record = await this.#owned(principal, continuationId);
    const { retryOf: _old, model, ...hints } = (record.request.plannerHints ?? {}) as Record<string, unknown>;
    return this.send(principal, {
      sessionId: record.sessionId,
      message: record.request.message,
      allowTools: record.request.allowTools,
      ...(record.request.timeBudgetMs ? { timeBudgetMs: record.request.timeBudgetMs } : {}),
      ...(typeof model === "string" ? { model } : {}),
      ...(Object.keys(hints).length ? { plannerHints: hints } : {}),
      retryOf: continuationId,
    });
  }

  /** One CompletionTrace per model call of a continuation, read from its journal. */
  async traces(owner: string, continuationId: string) {
    const entries = await storeJournal(this.options.store, owner, continuationId).read();
    return entries.flatMap((e) => {
      if (e.type !== "model_response") return [];
      const parsed = ModelResponseDetailSchema.safeParse(e.detail);
      if (!parsed.success) return [];
      const d = parsed.data;
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
    const all = [...this.#running.values()];
    if (!all.length) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
    await Promise.race([Promise.all(all.map((r) => r.done.catch(() => undefined))), deadline]);
    clearTimeout(timer);
    for (const r of this.#running.values()) r.interrupt.abort(new Error("shutdown"));
    await Promise.race([Promise.all(all.map((r) => r.done.catch(() => undefined))), new Promise((r) => setTimeout(r, 1_000))]);
  }

  #start(principal: Principal, continuation: ContinuationRecord, model: ModelClient): void {
    const store = this.options.store;
    const session = store.sessions.get(principal.id, continuation.sessionId)!;
    const cancel = new AbortController();
    const interrupt = new AbortController();
    const done = executeContinuation(
      { store, registry: this.options.registry, index: this.options.index, clock: this.options.clock, logger: this.options.logger, events: this.events, ceiling: this.options.ceiling, exposure: this.options.exposure },
      { principal, session, continuation, model: gatedModel(model, this.#gate, session.id), signal: cancel.signal, drain: this.#drain.signal, interrupt: interrupt.signal },
    ).catch((err: unknown) => this.#failed(principal, continuation.id, err));
    const entry: Running = { sessionId: session.id, cancel, interrupt, done };
    this.#running.set(continuation.id, entry);
    void done
      .catch(() => undefined)
      .finally(async () => {
        this.#running.delete(continuation.id);
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

  async #modelFor(name: string | undefined): Promise<ModelClient> {
    const model = await this.options.models.get(name).catch(() => undefined);
    if (!model) throw new AgentError("no_model", this.options.models.missing());
    return model;
  }

  async #owned(principal: Principal, continuationId: string): Promise<ContinuationRecord> {
    const record = await this.options.store.continuations.get(principal.id, continuationId);
    if (!record) throw new AgentError("not_found", `No continuation "${continuationId}" exists for you. Check the id returned by ha_agent_send_message.`);
    return record;
  }

  #refuseWhileDraining(): void {
    if (this.#drain.signal.aborted) throw new AgentError("shutting_down", "HA Agent is shutting down; send the message again in a moment.");
  }
}

function modelOverride(record: ContinuationRecord): string | undefined {
  const model = (record.request.plannerHints as { model?: unknown } | undefined)?.model;
  return typeof model === "string" ? model : undefined;
}
