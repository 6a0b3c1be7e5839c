import { IndexFilterError, searchNote, whereSpoken, type HomeIndex, type SearchResult } from "../indexer/index.js";
import type { ModelClient, ToolCall } from "../models/index.js";
import type { Clock, Logger, Principal } from "../shared/index.js";
import type { ContinuationPatch, ContinuationRecord, SessionHead, Store, Usage } from "../store/index.js";
import { DEFAULT_LAST_K, isFinalStatus } from "../store/index.js";
import { targetsOfCall, type ActuationCeiling, type SessionActuation, type ToolRegistry } from "../tools/index.js";
import { agentTools, maxResultCharsFor } from "./agent-tools.js";
import type { ApprovalGate } from "./approval-gate.js";
import { ContentProvider } from "./content-provider.js";
import type { AgentEvents, AgentEventType } from "./events.js";
import { readJournal } from "./journal.js";
import { runTurn, type TurnOutcome } from "./loop.js";
import { usageOf, withFold } from "./replay.js";
import { loadMemory, rememberedMessages, rememberExchange } from "./memory.js";
import { TOOL_GUIDANCE, homeOverview, policyLines } from "./prompt.js";
import { rememberTool, rememberedFacts } from "./remember-tool.js";
import { PartialText } from "./partial-text.js";
import { sequencedJournal } from "./step-events.js";
import { storeJournal } from "./store-journal.js";
import { takeOnPersona, type TurnPersonas } from "./turn-persona.js";

export type { TurnPersonas } from "./turn-persona.js";

export interface TurnDeps {
  store: Store;
  registry: ToolRegistry;
  index: HomeIndex;
  clock: Clock;
  logger: Logger;
  events: AgentEvents;
  ceiling: ActuationCeiling;
  /** allow_automation_edits: the agent may save automations, after a person's yes. */
  automationEdits?: boolean;
  exposure?: { refresh(): Promise<void> };
  personas?: TurnPersonas;
}

export interface TurnRun {
  /** The session's owner, as an administrator or not as the turn's request recorded it. */
  principal: Principal;
  session: SessionHead;
  continuation: ContinuationRecord;
  model: ModelClient;
  signal: AbortSignal;
  drain: AbortSignal;
  interrupt: AbortSignal;
  /** Set for a turn sent with `stream`: the text of the model call under way, while it arrives. */
  streamed?: StreamedText;
  /** Where the turn's actions wait for a person's yes. */
  approvals?: ApprovalGate;
}

/** What a streamed turn's model has said so far in its current call; `active` while text arrives. */
export interface StreamedText {
  text: string;
  active: boolean;
}

const RETRIEVAL_HITS = 6;
/** Hits scoring under this share of the best one are noise for priming; the model can still search. */
const RETRIEVAL_MIN_SHARE = 1 / 3;

/**
 * Runs one continuation to its end: sets up its context and tools, runs the
 * loop, and writes the outcome, memory included, in one final update.
 */
export async function executeContinuation(deps: TurnDeps, run: TurnRun): Promise<ContinuationRecord> {
  const { store, clock } = deps;
  const { principal, session, continuation: cont } = run;
  const owner = principal.id;
  const stored = storeJournal(store, owner, cont.id);
  const emitAt = (type: AgentEventType, seq: number, payload: Record<string, unknown>) => deps.events.emit({ type, session_id: session.id, continuation_id: cont.id, seq, payload });
  const streamed = run.streamed;
  const partial = new PartialText((text) => emitAt("partial", journal.position, { partial_response: text }));
  // Steps are announced by the journal as their lines are written, so each carries its line's position.
  const journal = sequencedJournal({
    journal: stored,
    written: (await stored.read()).length,
    onStep: (event) => {
      partial.flush();
      if (streamed && event.payload.step?.type === "model_response") Object.assign(streamed, { text: "", active: false });
      emitAt(event.type, event.seq, event.payload);
    },
  });
  const emit = (type: "progress" | "partial", payload: Record<string, unknown>) => emitAt(type, journal.position, payload);

  await deps.exposure?.refresh();
  const actuation = effectiveActuation(deps.ceiling, session);
  const asks = actuation?.approval === "ask";
  const context = new ContentProvider();
  // Saving automations: the add-on allows it, someone is asked, and the owner is an administrator (the tool is offered then).
  const saves = deps.automationEdits === true && session.policy.approval === "ask" && principal.isAdmin;
  context.set("policy", policyLines({ actuation: actuation ? "allowed" : "refused", allowlist: asks ? [] : (actuation?.allowlistedServices ?? []), allowTools: cont.request.allowTools, asks, saves }));
  if (cont.request.allowTools) context.set("tool_guidance", TOOL_GUIDANCE);
  if (deps.index.ready) context.set("home_overview", homeOverview(deps.index.query()));
  // Read now, not when the turn was queued: the previous turn of the session may have changed it since.
  const memory = await store.sessions.memory(owner, session.id);
  loadMemory(context, memory);
  // Resolved anew for each turn, so its priming is of the home now; a resume keeps the journaled one.
  const persona = session.persona ? await takeOnPersona({ choice: session.persona, personas: deps.personas, journal, context, caller: principal }) : undefined;
  if (persona && !persona.ok) {
    deps.logger.warn({ continuation: cont.id, persona: session.persona?.name, code: persona.error.code }, "a turn's persona could not be resolved");
    const failed = await store.continuations.update(owner, cont.id, { status: "failed", error: persona.error });
    emitAt("final", (await stored.read()).length + 1, finalPayload(failed));
    return failed;
  }
  if (cont.request.allowTools && deps.index.ready) {
    // Where the person is (a persona's area, a pin such as "I am in the kitchen") is preferred when the message names no area.
    const nearArea = whereSpoken({ pins: memory.pins.map((p) => p.text), personaArea: session.persona?.args.area });
    const hits = primingHits(deps.index, cont.request.message, nearArea);
    const strong = hits.filter((h) => h.score >= (hits[0]?.score ?? 0) * RETRIEVAL_MIN_SHARE);
    if (strong.length) context.add("retrieval", retrievalText(strong, searchNote({ query: cont.request.message, results: hits, ...(nearArea ? { nearArea } : {}) })));
  }

  const tools = cont.request.allowTools
    ? agentTools({
        registry: deps.registry,
        principal,
        actuation,
        maxResultChars: maxResultCharsFor(run.model.facts.contextWindow),
        saveLarge: (content, name) => store.artifacts.put(owner, cont.id, { content, mediaType: "application/json", name }),
        asks: session.policy.approval === "ask",
        automationEdits: deps.automationEdits === true,
        extra: [rememberTool()],
        ...(persona?.ok ? { only: persona.persona.tools } : {}),
      })
    : [];

  const budgets = {
    maxSteps: cont.request.maxSteps ?? session.budgets.maxSteps,
    maxToolCalls: session.budgets.maxToolCalls,
    maxTokensPerTurn: session.budgets.maxTokensPerTurn,
    timeBudgetMs: cont.request.timeBudgetMs ?? session.budgets.maxDurationMs,
  };

  // A turn that waits for a person stays input_required until its approval is answered.
  if (cont.status !== "running" && cont.status !== "input_required") await store.continuations.update(owner, cont.id, { status: "running" });
  const outcome: TurnOutcome = await runTurn({
    continuationId: cont.id,
    model: run.model,
    context,
    prompt: [...rememberedMessages(memory), { type: "user", text: cont.request.message }],
    tools,
    budgets,
    journal,
    clock,
    signal: run.signal,
    drain: run.drain,
    interrupt: run.interrupt,
    describeUnknownOutcome: (call) => Promise.resolve(describeTargets(deps.index, call)),
    ...(run.approvals ? { approvals: run.approvals } : {}),
    emit: (e) => {
      // The journal announces steps; only a streamed turn hands its text on.
      if (e.type === "progress") emit("progress", { message: e.message });
      else if (e.type === "partial" && streamed) {
        Object.assign(streamed, { text: streamed.text + e.text, active: true });
        partial.add(e.text);
      }
    },
    maxOutputTokens: Math.min(8_192, run.model.facts.maxOutputTokens),
  });
  if (outcome.status === "input_required") {
    // A shutdown came while an action waited for a person: the record stays as it is, and the next start waits again.
    partial.flush();
    return (await store.continuations.get(owner, cont.id)) ?? cont;
  }
  if (outcome.status === "failed") deps.logger.warn({ continuation: cont.id, code: outcome.error.code, err: outcome.error.message }, "a turn failed");

  const c = outcome.counters;
  const usage: Usage = usageOf(c, `${run.model.provider}/${run.model.model}`);
  const patch: ContinuationPatch = { status: outcome.status, usage };
  if (outcome.status === "completed") {
    const text = outcome.note ? `${outcome.text}\n\n(${outcome.note})` : outcome.text;
    patch.response = { finalMessage: text, citations: citationsIn(deps.index, outcome.text) };
    const records = await readJournal(journal);
    const journaledSummary = records.find((r) => r.type === "summary")?.detail;
    const remembered = await rememberExchange({
      memory: { ...memory, facts: [...memory.facts, ...rememberedFacts(records).map((f) => ({ text: f, createdAt: clock.now(), source: cont.id }))] },
      user: cont.request.message,
      answer: outcome.text,
      continuationId: cont.id,
      now: clock.now(),
      lastK: DEFAULT_LAST_K,
      model: run.model,
      journal,
      ...(journaledSummary !== undefined ? { journaledSummary } : {}),
    });
    patch.memory = remembered.memory;
    if (remembered.fold) Object.assign(usage, withFold(usage, remembered.fold));
  } else if (outcome.status === "expired") {
    patch.error = { code: outcome.code ?? "time_budget", message: outcome.note };
  } else if (outcome.status === "failed") {
    patch.error = outcome.error;
  } else if (outcome.status === "cancelled") {
    patch.error = { code: "cancelled", message: "The turn was cancelled." };
  }
  partial.flush();
  if (streamed) streamed.active = false;
  const final = await store.continuations.update(owner, cont.id, patch);
  // After the last line, as a replay counts it: the memory fold may have journaled a summary.
  // An interrupted turn goes on after a resume: only a final status ends its events.
  if (isFinalStatus(final.status)) emitAt("final", (await stored.read()).length + 1, finalPayload(final));
  else emit("progress", { message: `The turn stopped (${final.status}); ha_agent_resume continues it.`, status: final.status });
  return final;
}

/** A `final` event's payload, the same live and replayed. */
export function finalPayload(record: ContinuationRecord): Record<string, unknown> {
  return { status: record.status, ...(record.response ? { final_response: record.response } : {}) };
}

/**
 * The session's actuation limits under the add-on's ceiling, or undefined
 * when it may not act at all: the add-on forbids it, or the session neither
 * allows actions nor asks for approvals.
 */
function effectiveActuation(ceiling: ActuationCeiling, session: SessionHead): SessionActuation | undefined {
  const { allowActuation, allowlistedServices, approval } = session.policy;
  if (!ceiling.allow || (!allowActuation && approval !== "ask")) return undefined;
  return { allowActuation, allowlistedServices, approval };
}

function retrievalText(hits: { entityId: string; name: string; area: string | null; state: string | null }[], note: string | undefined): string {
  const lines = hits.map((h) => `- ${h.entityId} (${h.name}${h.area ? `, ${h.area}` : ""}): ${h.state ?? "no state"}`);
  return `Index matches for the next message, states now:\n${lines.join("\n")}${note ? `\n${note}` : ""}`;
}

/** The index's matches for priming, near where the person is when that names an area of the home. */
function primingHits(index: HomeIndex, message: string, nearArea: string | undefined): SearchResult[] {
  if (nearArea) {
    try {
      return index.search(message, { limit: RETRIEVAL_HITS, nearArea });
    } catch (err) {
      // A pin may name a place the home has no area for; then priming goes without it.
      if (!(err instanceof IndexFilterError)) throw err;
    }
  }
  return index.search(message, { limit: RETRIEVAL_HITS });
}

/** What an action's targets look like now, for a call whose outcome a restart made unknown. */
function describeTargets(index: HomeIndex, call: ToolCall): string {
  // Resolved as call_service resolves it, so a call given a target names the entities it acted on.
  const ids = targetsOfCall(index, call.args);
  if (!ids.length) return "It named no entity, so its effect cannot be read back; ask the user before trying again.";
  const states = ids.map((id) => `${id} is ${index.entity(id)?.state?.state ?? "unknown"}`);
  return `Current state: ${states.join(", ")}. Tell the user, and do not repeat the action unless they ask.`;
}

/** Entity ids the answer names that the home really has. */
function citationsIn(index: HomeIndex, text: string): { source: string }[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(/\b[a-z_]+\.[a-z0-9_]+\b/g)) {
    if (!seen.has(match[0]) && index.entity(match[0])) seen.add(match[0]);
  }
  return [...seen].map((source) => ({ source }));
}
