import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { systemClock } from "../shared/index.js";
import type { JsonValue } from "../models/index.js";
import { scriptedModel } from "../../test/support/scripted-model.js";
import type { AgentTool } from "./agent-tool.js";
import type { ApprovalGate } from "./approval-gate.js";
import { ContentProvider } from "./content-provider.js";
import type { TurnJournal } from "./journal.js";
import { runTurn, type LoopEvent, type RunTurnOptions } from "./loop.js";
import type { JournalEntry } from "./journal.js";

const BUDGETS = { maxSteps: 8, maxToolCalls: 16, maxTokensPerTurn: 100_000, timeBudgetMs: 120_000 };

function memoryJournal(initial: JournalEntry[] = []) {
  const entries: (JournalEntry & { durable: boolean; key?: string })[] = initial.map((e) => ({ ...e, durable: true }));
  const journal: TurnJournal = {
    async append(entry, options) {
      entries.push({ type: entry.type, detail: structuredClone(entry.detail), key: entry.key, durable: options?.durable === true });
    },
    async read() {
      return entries.map(({ type, detail }) => ({ type, detail: structuredClone(detail) }));
    },
  };
  return { journal, entries };
}

function tool(name: string, run: (args: Record<string, JsonValue>, signal: AbortSignal) => Promise<JsonValue>, action = false): AgentTool & { calls: Record<string, JsonValue>[] } {
  const calls: Record<string, JsonValue>[] = [];
  return {
    calls,
    action,
    declaration: { name, description: name, parameters: { type: "object" } },
    async run(args, signal) {
      calls.push(args);
      return { ok: true, value: await run(args, signal) };
    },
  };
}

function options(overrides: Partial<RunTurnOptions> & Pick<RunTurnOptions, "model" | "journal">): RunTurnOptions {
  return {
    continuationId: "C1",
    context: new ContentProvider(),
    prompt: [{ type: "user", text: "Which lights are on?" }],
    tools: [],
    budgets: BUDGETS,
    clock: systemClock,
    signal: new AbortController().signal,
    describeUnknownOutcome: async () => "light.kitchen is on.",
    ...overrides,
  };
}

describe("runTurn", () => {
  it("calls tools, journals every step, and answers with the model's text", async () => {
    const search = tool("index_search", async () => ({ results: ["light.kitchen"] }));
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "index_search", args: { query: "lights" } }] }, { text: "light.kitchen is on." }]);
    const { journal, entries } = memoryJournal();
    const outcome = await runTurn(options({ model, journal, tools: [search] }));

    expect(outcome).toMatchObject({ status: "completed", text: "light.kitchen is on.", counters: { steps: 2, toolCalls: 1 } });
    expect(entries.map((e) => e.type)).toEqual(["model_response", "tool_call", "tool_result", "model_response"]);
    expect(entries[1]?.key).toBe("C1:1:0");
    // The second call sees the first model turn verbatim and the tool's result.
    const second = model.requests[1]!.conversation;
    expect(second.at(-2)).toMatchObject({ type: "model", turn: { raw: { n: 1 } } });
    expect(second.at(-1)).toMatchObject({ type: "tool_results", results: [{ callId: "call-1-0", output: { results: ["light.kitchen"] }, isError: false }] });
  });

  it("primes the first call with retrieval snippets once, journals them, and sends the same prompt on resume", async () => {
    const context = new ContentProvider();
    context.set("policy", ["- read only"]);
    context.add("retrieval", "light.kitchen_ceiling (Kitchen) is on");
    const search = tool("index_search", async () => ({ results: [] }));
    const crashing: AgentTool = { ...search, run: () => new Promise(() => {}) };
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "index_search", args: {} }] }]);
    const { journal, entries } = memoryJournal();
    void runTurn(options({ model, journal, context, tools: [crashing] }));
    await vi_waitFor(() => entries.some((e) => e.type === "tool_call"));
    const first = model.requests[0]!;
    expect(first.system).toContain("read only");
    // The snippets go to the end of the system text: two user messages in a row break strict chat templates.
    expect(first.system).toMatch(/## For the user's next message\nlight\.kitchen_ceiling \(Kitchen\) is on$/);
    expect(first.conversation).toEqual([{ type: "user", text: "Which lights are on?" }]);
    expect(context.pending("retrieval")).toHaveLength(0);

    const resumedModel = scriptedModel([{ text: "on" }]);
    await runTurn(options({ model: resumedModel, journal: memoryJournal(entries).journal, tools: [search] }));
    expect(resumedModel.requests[0]!.system).toMatch(/## For the user's next message\nlight\.kitchen_ceiling \(Kitchen\) is on$/);
    expect(resumedModel.requests[0]!.conversation.slice(0, 1)).toEqual(first.conversation);
    expect(resumedModel.requests[0]!.conversation.at(-1)).toMatchObject({ type: "tool_results" });
  });

  it("runs the read-only calls of one step in parallel and actions one at a time behind durable intents", async () => {
    let running = 0;
    let peak = 0;
    const slowRead = tool("state_query", async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      return { ok: true };
    });
    const order: string[] = [];
    const act = tool("call_service", async (args) => {
      order.push(String(args.entity_id));
      return { done: true };
    }, true);
    const model = scriptedModel([
      { text: "", toolCalls: [{ name: "state_query", args: { a: 1 } }, { name: "call_service", args: { entity_id: "light.a" } }, { name: "state_query", args: { a: 2 } }, { name: "call_service", args: { entity_id: "light.b" } }] },
      { text: "done" },
    ]);
    const { journal, entries } = memoryJournal();
    await runTurn(options({ model, journal, tools: [slowRead, act] }));

    expect(peak).toBe(2);
    expect(order).toEqual(["light.a", "light.b"]);
    const intents = entries.filter((e) => e.type === "tool_call");
    expect(intents.filter((e) => e.durable).map((e) => (e.detail as { call: { args: unknown } }).call.args)).toEqual([{ entity_id: "light.a" }, { entity_id: "light.b" }]);
    expect(intents.filter((e) => !e.durable)).toHaveLength(2);
    // Results go back in the order the model asked for them.
    const results = model.requests[1]!.conversation.at(-1);
    expect(results).toMatchObject({ type: "tool_results", results: [{ name: "state_query" }, { name: "call_service" }, { name: "state_query" }, { name: "call_service" }] });
  });

  it("gives the model a value for an unknown tool and for a failing tool, and goes on", async () => {
    const broken: AgentTool = { action: false, declaration: { name: "diagnose_entity", description: "", parameters: {} }, run: async () => { throw new Error("boom"); } };
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "no_such_tool", args: {} }, { name: "diagnose_entity", args: {} }] }, { text: "sorry" }]);
    const { journal } = memoryJournal();
    const outcome = await runTurn(options({ model, journal, tools: [broken] }));
    expect(outcome.status).toBe("completed");
    const results = model.requests[1]!.conversation.at(-1) as unknown as { results: { output: { error: { code: string; message: string } } }[] };
    expect(results.results[0]!.output.error.code).toBe("unknown_tool");
    expect(results.results[0]!.output.error.message).toContain("diagnose_entity");
    expect(results.results[1]!.output.error).toMatchObject({ code: "internal", message: expect.stringContaining("boom") });
  });

  it("resumes from the journal: no journaled model turn is asked for again and an action with only an intent is not repeated", async () => {
    const act = tool("call_service", async () => ({ done: true }), true);
    const first = scriptedModel([{ text: "", toolCalls: [{ name: "call_service", args: { entity_id: "light.kitchen" } }] }]);
    const { journal, entries } = memoryJournal();
    // Simulate a crash right after the intent was fsynced: the tool never returns.
    const crashing: AgentTool = { ...act, run: () => new Promise(() => {}) };
    void runTurn(options({ model: first, journal, tools: [crashing] }));
    await vi_waitFor(() => entries.some((e) => e.type === "tool_call"));

    const second = scriptedModel([{ text: "It may be on; light.kitchen is on now." }]);
    const replayed = memoryJournal(entries.map(({ type, detail }) => ({ type, detail })));
    const outcome = await runTurn(options({ model: second, journal: replayed.journal, tools: [act] }));

    expect(outcome).toMatchObject({ status: "completed", counters: { steps: 2, toolCalls: 1 } });
    expect(act.calls).toHaveLength(0);
    expect(second.requests).toHaveLength(1);
    const results = second.requests[0]!.conversation.at(-1) as unknown as { results: { output: { error: { code: string; message: string } } }[] };
    expect(results.results[0]!.output.error.code).toBe("outcome_unknown");
    expect(results.results[0]!.output.error.message).toContain("light.kitchen is on.");
    // The replayed model turn is the journaled one, verbatim.
    expect(second.requests[0]!.conversation.at(-2)).toMatchObject({ type: "model", turn: { raw: { n: 1 } } });
  });

  it("re-runs a read-only call whose result was lost, without counting it twice", async () => {
    const read = tool("state_query", async () => ({ state: "on" }));
    const { journal, entries } = memoryJournal();
    const stuck: AgentTool = { ...read, run: () => new Promise(() => {}) };
    void runTurn(options({ model: scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }] }]), journal, tools: [stuck] }));
    await vi_waitFor(() => entries.some((e) => e.type === "tool_call"));

    const replayed = memoryJournal(entries.map(({ type, detail }) => ({ type, detail })));
    const outcome = await runTurn(options({ model: scriptedModel([{ text: "on" }]), journal: replayed.journal, tools: [read] }));
    expect(read.calls).toHaveLength(1);
    expect(outcome.counters.toolCalls).toBe(1);
  });

  it("returns a finished turn from the journal without calling the model", async () => {
    const model = scriptedModel([{ text: "all off" }]);
    const { journal, entries } = memoryJournal();
    await runTurn(options({ model, journal }));
    const again = scriptedModel([]);
    const outcome = await runTurn(options({ model: again, journal: memoryJournal(entries).journal }));
    expect(outcome).toMatchObject({ status: "completed", text: "all off" });
    expect(again.requests).toHaveLength(0);
  });

  it("stops at max_steps with one last call without tools and a note naming the budget", async () => {
    const read = tool("state_query", async () => ({}));
    const loopForever = Array.from({ length: 3 }, () => ({ text: "", toolCalls: [{ name: "state_query", args: {} }] }));
    const model = scriptedModel([...loopForever, { text: "best guess" }]);
    const outcome = await runTurn(options({ model, journal: memoryJournal().journal, tools: [read], budgets: { ...BUDGETS, maxSteps: 3 } }));
    expect(outcome).toMatchObject({ status: "completed", text: "best guess", budget: "steps" });
    expect(outcome.status === "completed" && outcome.note).toContain("max_steps");
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]!.tools).toEqual([]);
  });

  it("refuses calls beyond max_tool_calls as values, then asks for the best answer", async () => {
    const read = tool("state_query", async () => ({}));
    const model = scriptedModel([{ text: "", toolCalls: Array.from({ length: 3 }, () => ({ name: "state_query", args: {} })) }, { text: "partial answer" }]);
    const outcome = await runTurn(options({ model, journal: memoryJournal().journal, tools: [read], budgets: { ...BUDGETS, maxToolCalls: 2 } }));
    expect(read.calls).toHaveLength(0);
    expect(outcome).toMatchObject({ status: "completed", budget: "tool_calls" });
    expect(model.requests[1]!.tools).toEqual([]);
    expect(model.requests[1]!.conversation.at(-1)).toMatchObject({ type: "tool_results", results: [{ isError: true }, { isError: true }, { isError: true }] });
  });

  it("counts thinking tokens toward max_tokens_per_turn", async () => {
    const read = tool("state_query", async () => ({}));
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }], usage: { inputTokens: 100, outputTokens: 10, thinkingTokens: 900 } }, { text: "short" }]);
    const outcome = await runTurn(options({ model, journal: memoryJournal().journal, tools: [read], budgets: { ...BUDGETS, maxTokensPerTurn: 1000 } }));
    expect(outcome).toMatchObject({ status: "completed", budget: "tokens" });
    expect(model.requests[1]!.tools).toEqual([]);
  });

  it("expires a turn that runs out of time during a slow model call", async () => {
    const model = scriptedModel([{ text: "late", delayMs: 5_000 }]);
    const outcome = await runTurn(options({ model, journal: memoryJournal().journal, budgets: { ...BUDGETS, timeBudgetMs: 30 } }));
    expect(outcome.status).toBe("expired");
  });

  it("is cancelled during a slow model call and during a slow tool", async () => {
    const cancelModel = new AbortController();
    const slowModel = runTurn(options({ model: scriptedModel([{ text: "late", delayMs: 5_000 }]), journal: memoryJournal().journal, signal: cancelModel.signal }));
    setTimeout(() => cancelModel.abort(), 10);
    expect((await slowModel).status).toBe("cancelled");

    const cancelTool = new AbortController();
    const slowTool = tool("diagnose_entity", (_args, signal) => new Promise((_r, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))));
    const turn = runTurn(options({ model: scriptedModel([{ text: "", toolCalls: [{ name: "diagnose_entity", args: {} }] }, { text: "never" }]), journal: memoryJournal().journal, tools: [slowTool], signal: cancelTool.signal }));
    setTimeout(() => cancelTool.abort(), 10);
    expect((await turn).status).toBe("cancelled");
  });

  it("leaves an action cut short by a shutdown with its intent and no result, so a resume never repeats it", async () => {
    const interrupt = new AbortController();
    let reached = 0;
    const act = tool("call_service", (_args, signal) => {
      reached++;
      return new Promise((_r, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    }, true);
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "call_service", args: { entity_id: "light.kitchen" } }] }, { text: "unsure" }]);
    const { journal, entries } = memoryJournal();
    const turn = runTurn(options({ model, journal, tools: [act], interrupt: interrupt.signal }));
    await vi_waitFor(() => reached === 1);
    interrupt.abort();
    expect((await turn).status).toBe("interrupted");
    expect(entries.map((e) => e.type)).toEqual(["model_response", "tool_call"]);

    const resumed = await runTurn(options({ model, journal: memoryJournal(entries).journal, tools: [act] }));
    expect(resumed.status).toBe("completed");
    expect(reached).toBe(1);
  });

  it("leaves nothing on the runtime's drain signal once its steps are done, however many turns ran", async () => {
    const drain = new AbortController();
    // Read-only calls never ask a person; the gate is there as the runtime's always is.
    const gate = {} as ApprovalGate;
    for (let i = 0; i < 3; i++) {
      const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }] }, { text: "done" }]);
      const turn = await runTurn(options({ model, journal: memoryJournal().journal, tools: [tool("state_query", async () => ({}))], drain: drain.signal, approvals: gate }));
      expect(turn.status).toBe("completed");
    }
    expect(getEventListeners(drain.signal, "abort")).toHaveLength(0);
    // Node 20 records every AbortSignal.any() over a signal in a set on it that it never prunes (a Node internal, read here by its symbol).
    const kDependants = Object.getOwnPropertySymbols(drain.signal).find((sym) => sym.description === "kDependantSignals");
    const dependants = kDependants ? (drain.signal as unknown as Record<symbol, { size: number } | undefined>)[kDependants] : undefined;
    expect(dependants?.size ?? 0).toBe(0);
  });

  it("stops at a step boundary when draining, leaving the turn resumable", async () => {
    const drain = new AbortController();
    const read = tool("state_query", async () => {
      drain.abort();
      return {};
    });
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }] }, { text: "after resume" }]);
    const { journal, entries } = memoryJournal();
    expect((await runTurn(options({ model, journal, tools: [read], drain: drain.signal }))).status).toBe("interrupted");
    const resumed = await runTurn(options({ model, journal: memoryJournal(entries).journal, tools: [read] }));
    expect(resumed).toMatchObject({ status: "completed", text: "after resume" });
    expect(read.calls).toHaveLength(1);
  });
});

describe("runTurn's journal", () => {
  it("journals a wrap_up naming the budget before the last call, and a resume finishes that call with the same note", async () => {
    const read = tool("state_query", async () => ({}));
    const loopForever = Array.from({ length: 2 }, () => ({ text: "", toolCalls: [{ name: "state_query", args: {} }] }));
    const { journal, entries } = memoryJournal();
    const crashing = scriptedModel([...loopForever, async () => new Promise<never>(() => {})]);
    void runTurn(options({ model: crashing, journal, tools: [read], budgets: { ...BUDGETS, maxSteps: 2 } }));
    await vi_waitFor(() => crashing.requests.length === 3);
    expect(entries.map((e) => e.type).slice(-2)).toEqual(["tool_result", "wrap_up"]);
    expect(entries.at(-1)?.detail).toEqual({ step: 3, budget: "steps" });

    const resumed = scriptedModel([{ text: "best guess" }]);
    const outcome = await runTurn(options({ model: resumed, journal: memoryJournal(entries).journal, tools: [read], budgets: { ...BUDGETS, maxSteps: 2 } }));
    expect(outcome).toMatchObject({ status: "completed", text: "best guess", budget: "steps" });
    expect(resumed.requests[0]!.tools).toEqual([]);
  });

  it("still replays an older journal whose wrap-up is a model_response marked wrapUp", async () => {
    const usage = { inputTokens: 10, outputTokens: 5, thinkingTokens: 0, cachedTokens: 0, estimated: false };
    const turn = (n: number, text: string, toolCalls: { id: string; name: string; args: Record<string, JsonValue> }[] = []) => ({ provider: "scripted", model: "s", raw: { n }, text, toolCalls });
    const old: JournalEntry[] = [
      { type: "model_response", detail: { step: 1, turn: turn(1, "", [{ id: "c1", name: "state_query", args: {} }]), usage, finishReason: "tool_calls", durationMs: 1, wrapUp: false } },
      { type: "tool_call", detail: { step: 1, index: 0, call: { id: "c1", name: "state_query", args: {} }, action: false } },
      { type: "tool_result", detail: { step: 1, index: 0, result: { callId: "c1", name: "state_query", output: {}, isError: false }, durationMs: 1 } },
      { type: "model_response", detail: { step: 2, turn: turn(2, "from the old wrap-up"), usage, finishReason: "stop", durationMs: 1, wrapUp: true } },
    ];
    const again = scriptedModel([]);
    const outcome = await runTurn(options({ model: again, journal: memoryJournal(old).journal, budgets: { ...BUDGETS, maxSteps: 1 } }));
    expect(outcome).toMatchObject({ status: "completed", text: "from the old wrap-up", budget: "steps" });
    expect(again.requests).toHaveLength(0);
  });

  it("reports an action journaled before actuation was switched off as outcome unknown, not as an unknown tool", async () => {
    const act = tool("call_service", async () => ({ done: true }), true);
    const { journal, entries } = memoryJournal();
    const crashing: AgentTool = { ...act, run: () => new Promise(() => {}) };
    void runTurn(options({ model: scriptedModel([{ text: "", toolCalls: [{ name: "call_service", args: { entity_id: "light.kitchen" } }] }]), journal, tools: [crashing] }));
    await vi_waitFor(() => entries.some((e) => e.type === "tool_call"));

    // After the restart the session may no longer act: call_service is not among the turn's tools.
    const second = scriptedModel([{ text: "It may have happened." }]);
    const outcome = await runTurn(options({ model: second, journal: memoryJournal(entries).journal, tools: [] }));
    expect(outcome.status).toBe("completed");
    const results = second.requests[0]!.conversation.at(-1) as unknown as { results: { output: { error: { code: string; message: string } } }[] };
    expect(results.results[0]!.output.error.code).toBe("outcome_unknown");
    expect(results.results[0]!.output.error.message).toContain("light.kitchen is on.");
  });

  it("ends failed with the usage it spent when a journal write fails, never with zero", async () => {
    const read = tool("state_query", async () => ({}));
    const { journal } = memoryJournal();
    let responses = 0;
    const failing: TurnJournal = {
      read: journal.read,
      async append(entry, opts) {
        if (entry.type === "model_response" && ++responses === 2) throw Object.assign(new Error("Could not append a step: the disk is full."), { code: "storage_error" });
        await journal.append(entry, opts);
      },
    };
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }], usage: { inputTokens: 100, outputTokens: 10 } }, { text: "done", usage: { inputTokens: 200, outputTokens: 20 } }]);
    const outcome = await runTurn(options({ model, journal: failing, tools: [read] }));
    expect(outcome).toMatchObject({ status: "failed", error: { code: "storage_error", message: expect.stringContaining("disk is full") } });
    expect(outcome.counters).toMatchObject({ steps: 2, toolCalls: 1, tokensIn: 300, tokensOut: 30 });
  });

  it("numbers its step events as the journal does, carrying on after a resume", async () => {
    const read = tool("state_query", async () => ({}));
    const drain = new AbortController();
    const stopping = tool("state_query", async () => {
      drain.abort();
      return {};
    });
    const { journal, entries } = memoryJournal();
    const first: number[] = [];
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }] }, { text: "", toolCalls: [{ name: "state_query", args: {} }] }, { text: "done" }]);
    const onStep = (into: number[]) => (e: LoopEvent) => e.type === "step" && e.step.type === "model_response" && into.push(e.step.number);
    expect((await runTurn(options({ model, journal, tools: [stopping], drain: drain.signal, emit: onStep(first) }))).status).toBe("interrupted");
    const second: number[] = [];
    await runTurn(options({ model, journal: memoryJournal(entries).journal, tools: [read], emit: onStep(second) }));
    expect(first).toEqual([1]);
    expect(second).toEqual([2, 3]);
  });
});

async function vi_waitFor(check: () => boolean): Promise<void> {
  // Up to 10 s: a loaded machine can be slow, and the check usually holds within milliseconds.
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error("condition never held");
}
