import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../test/support/scripted-model.js";
import { SessionMemorySchema, type SessionMemory } from "../store/index.js";
import { ContentProvider } from "./content-provider.js";
import type { TurnJournal } from "./journal.js";
import { loadMemory, rememberExchange, rememberedMessages } from "./memory.js";
import { composeSystem } from "./prompt.js";

const empty: SessionMemory = { rollingSummary: "", facts: [], pins: [], lastK: [] };

function journal() {
  const appended: { type: string; detail: unknown }[] = [];
  const j: TurnJournal = { append: async (e) => void appended.push(e), read: async () => appended };
  return { j, appended };
}

describe("session memory", () => {
  it("keeps the last K messages and folds the overflow into the rolling summary with one journaled call", async () => {
    let memory = empty;
    const model = scriptedModel([{ text: "User asked about lights 0 and 1." }]);
    const { j, appended } = journal();
    for (let i = 0; i < 3; i++) {
      ({ memory } = await rememberExchange({ memory, user: `q${i}`, answer: `a${i}`, continuationId: `C${i}`, now: i, lastK: 6, model, journal: j }));
    }
    expect(model.requests).toHaveLength(0);
    const folded = await rememberExchange({ memory, user: "q3", answer: "a3", continuationId: "C3", now: 3, lastK: 6, model, journal: j });
    expect(folded.fold).toMatchObject({ summary: "User asked about lights 0 and 1.", usage: { inputTokens: expect.any(Number) } });
    expect(folded.memory.lastK.map((m) => m.content)).toEqual(["q1", "a1", "q2", "a2", "q3", "a3"]);
    expect(folded.memory.rollingSummary).toBe("User asked about lights 0 and 1.");
    expect(model.requests[0]!.conversation[0]).toMatchObject({ type: "user", text: expect.stringContaining("User: q0\nAssistant: a0") });
    // The fold's usage is journaled with it, so the turn's totals count the call, and the console lists it.
    expect(appended).toEqual([{ type: "summary", detail: { summary: "User asked about lights 0 and 1.", usage: folded.fold!.usage, durationMs: expect.any(Number) } }]);
  });

  it("reuses a journaled fold on resume instead of calling the model again", async () => {
    const memory: SessionMemory = { ...empty, lastK: Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `m${i}`, ts: i })) as SessionMemory["lastK"] };
    const model = scriptedModel([]);
    const { j } = journal();
    const out = await rememberExchange({ memory, user: "q", answer: "a", continuationId: "C", now: 9, lastK: 6, model, journal: j, journaledSummary: { summary: "earlier" } });
    // The call was made before the restart: it is counted once, from its journaled line.
    expect(out).toMatchObject({ fold: { summary: "earlier" }, memory: { rollingSummary: "earlier" } });
    expect(model.requests).toHaveLength(0);
  });

  it("keeps the words themselves when the fold call fails, never losing the turn", async () => {
    const memory: SessionMemory = { ...empty, rollingSummary: "before", lastK: Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `m${i}`, ts: i })) as SessionMemory["lastK"] };
    const out = await rememberExchange({ memory, user: "q", answer: "a", continuationId: "C", now: 9, lastK: 6, model: scriptedModel([]), journal: journal().j });
    expect(out.memory.rollingSummary).toBe("before\nUser: m0\nAssistant: m1");
  });

  it("puts summary, facts and pins in the system instruction and lastK in the conversation", () => {
    const memory: SessionMemory = { rollingSummary: "talked about the garage", facts: [{ text: "prefers metric", createdAt: 0 }], pins: [{ id: "p1", text: "never touch the heating" }], lastK: [{ role: "user", content: "hi", ts: 0 }, { role: "assistant", content: "hello", ts: 1 }] };
    const provider = new ContentProvider();
    loadMemory(provider, memory);
    const system = composeSystem(provider);
    expect(system).toContain("talked about the garage");
    expect(system).toContain("- prefers metric");
    expect(system).toContain("- never touch the heating");
    expect(rememberedMessages(memory)).toEqual([{ type: "user", text: "hi" }, { type: "model", turn: { provider: "memory", model: "memory", raw: null, text: "hello", toolCalls: [] } }]);
  });

  it("keeps what it stores within the session record's limits: the newest facts, and the start of a very long answer", async () => {
    const facts = Array.from({ length: 60 }, (_, i) => ({ text: `fact ${i}`, createdAt: i }));
    const out = await rememberExchange({ memory: { ...empty, facts }, user: "q", answer: "x".repeat(40_000), continuationId: "01ARZ3NDEKTSV4RRFFQ69G5FAV", now: 1, lastK: 6, model: scriptedModel([]), journal: journal().j });
    expect(out.memory.facts).toHaveLength(50);
    expect(out.memory.facts[0]!.text).toBe("fact 10");
    expect(out.memory.lastK[1]!.content.length).toBeLessThanOrEqual(16_000);
    expect(SessionMemorySchema.safeParse(out.memory).success).toBe(true);
  });
});
