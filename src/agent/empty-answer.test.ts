import { describe, expect, it } from "vitest";
import { estimateRequestTokens, modelFacts, type GenerateRequest, type GenerateResult, type ModelClient } from "../models/index.js";
import { systemClock } from "../shared/index.js";
import { scriptedModel } from "../../test/support/scripted-model.js";
import type { AgentTool } from "./agent-tool.js";
import { ContentProvider } from "./content-provider.js";
import type { JournalEntry, TurnJournal } from "./journal.js";
import { runTurn, type RunTurnOptions } from "./loop.js";

const BUDGETS = { maxSteps: 8, maxToolCalls: 16, maxTokensPerTurn: 100_000, timeBudgetMs: 120_000 };

function journal(): { journal: TurnJournal; entries: JournalEntry[] } {
  const entries: JournalEntry[] = [];
  return {
    entries,
    journal: {
      async append(entry) {
        entries.push({ type: entry.type, detail: structuredClone(entry.detail) });
      },
      async read() {
        return entries.map((e) => ({ ...e, detail: structuredClone(e.detail) }));
      },
    },
  };
}

const read: AgentTool = { action: false, declaration: { name: "state_query", description: "", parameters: { type: "object" } }, run: async () => ({ ok: true, value: { entities: [] } }) };

function options(overrides: Partial<RunTurnOptions> & Pick<RunTurnOptions, "model" | "journal">): RunTurnOptions {
  return { continuationId: "C1", context: new ContentProvider(), prompt: [{ type: "user", text: "Which lights are on?" }], tools: [read], budgets: BUDGETS, clock: systemClock, signal: new AbortController().signal, describeUnknownOutcome: async () => "", ...overrides };
}

/** A reply with nothing in it, as a provider reports one. */
function empty(finishReason: GenerateResult["finishReason"], finishDetail: string, extra: Partial<GenerateResult> = {}) {
  return (request: GenerateRequest): GenerateResult => ({
    turn: { provider: "scripted", model: "scripted-1", raw: {}, text: "", toolCalls: [] },
    text: "",
    toolCalls: [],
    finishReason,
    finishDetail,
    usage: { inputTokens: estimateRequestTokens(request), outputTokens: 7, thinkingTokens: 50, cachedTokens: 0, estimated: false },
    durationMs: 3,
    ...extra,
  });
}

describe("an answer with neither text nor a tool call", () => {
  it("is asked for once more with a note in the system text; it is not journaled or sent back, and its tokens count", async () => {
    const model = scriptedModel([empty("length", "length"), { text: "The kitchen light is on." }]);
    const { journal: j, entries } = journal();
    const outcome = await runTurn(options({ model, journal: j }));
    expect(outcome).toMatchObject({ status: "completed", text: "The kitchen light is on." });
    expect(model.requests[1]!.system).toContain("ended (length) with no text and no tool call");
    expect(model.requests[1]!.system).toContain("answer briefly");
    expect(model.requests[1]!.conversation).toEqual(model.requests[0]!.conversation);
    expect(entries.filter((e) => e.type === "model_response")).toHaveLength(1);
    expect(outcome.counters).toMatchObject({ steps: 1, tokensThinking: 50 });
  });

  it("in the wrap-up call, tool calls without text are empty too: the last answer must be words", async () => {
    const callsNoText = (request: GenerateRequest) => ({ ...empty("tool_calls", "STOP")(request), toolCalls: [{ id: "x", name: "state_query", args: {} }], turn: { provider: "scripted", model: "scripted-1", raw: {}, text: "", toolCalls: [{ id: "x", name: "state_query", args: {} }] } });
    const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: {} }] }, callsNoText, { text: "Nothing is on." }]);
    const outcome = await runTurn(options({ model, journal: journal().journal, budgets: { ...BUDGETS, maxSteps: 1 } }));
    expect(outcome).toMatchObject({ status: "completed", text: "Nothing is on.", budget: "steps" });
    expect(model.requests[2]!.system).toContain("Answer in plain text.");
  });

  it("twice fails the turn with model_empty_answer, naming both finish reasons", async () => {
    const model = scriptedModel([empty("other", "MALFORMED_FUNCTION_CALL"), empty("other", "UNEXPECTED_TOOL_CALL")]);
    const outcome = await runTurn(options({ model, journal: journal().journal }));
    expect(outcome).toMatchObject({ status: "failed", error: { code: "model_empty_answer", message: expect.stringContaining("MALFORMED_FUNCTION_CALL, then UNEXPECTED_TOOL_CALL") } });
  });

  it("a safety stop is not empty: its refusal is the answer", async () => {
    const model = scriptedModel([empty("safety", "SAFETY", { refusal: "Gemini stopped its answer for safety." })]);
    const outcome = await runTurn(options({ model, journal: journal().journal }));
    expect(outcome).toMatchObject({ status: "completed", text: "Gemini stopped its answer for safety." });
    expect(model.requests).toHaveLength(1);
  });
});

describe("a window too small for the instructions, the tools and the message", () => {
  it("fails the turn saying so, naming where the window came from and the option, instead of sending what cannot fit", async () => {
    const model: ModelClient = { ...scriptedModel([{ text: "never" }]), facts: { ...modelFacts("tiny"), contextWindow: 2_048, windowSource: "num_ctx 2,048 from model_context_tokens" } };
    const context = new ContentProvider();
    context.set("home_overview", ["- x".repeat(3_000)]);
    const outcome = await runTurn(options({ model, journal: journal().journal, context }));
    expect(outcome).toMatchObject({ status: "failed", error: { code: "model_window_too_small", message: expect.stringContaining("num_ctx 2,048 from model_context_tokens") } });
    expect((outcome as { error: { message: string } }).error.message).toContain("model_context_tokens");
  });
});
