import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../store/index.js";
import { parseJournal } from "./journal.js";
import { replay } from "./replay.js";
import { storeJournal } from "./store-journal.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("storeJournal", () => {
  it("gives replay back a model turn too big to keep inline, byte for byte, after a reopen", async () => {
    const dir = await mkdtemp(join(tmpdir(), "journal-"));
    dirs.push(dir);
    let store = await openStore({ dataDir: dir });
    const session = await store.sessions.create({ owner: "u1" });
    const { continuation } = await store.continuations.create("u1", session.id, { message: "hi" });
    const signature = "Cq8BAVSoXO".repeat(3_000);
    const raw = { role: "model", parts: [{ functionCall: { name: "index_search", args: { query: "kitchen" } }, thoughtSignature: signature }] };
    const turn = { provider: "gemini", model: "gemini-2.5-flash", raw, text: "", toolCalls: [{ id: "c1", name: "index_search", args: { query: "kitchen" } }] };
    const usage = { inputTokens: 10, outputTokens: 5, thinkingTokens: 7, cachedTokens: 0, estimated: false };
    await storeJournal(store, "u1", continuation.id).append({ type: "model_response", detail: { step: 1, turn, usage, finishReason: "tool_calls", durationMs: 12, wrapUp: false } }, { durable: true });
    await store.close();

    store = await openStore({ dataDir: dir });
    const state = replay(parseJournal(await storeJournal(store, "u1", continuation.id).read()));
    await store.close();
    expect(state.last?.turn.raw).toEqual(raw);
    expect(state.counters).toMatchObject({ steps: 1, tokensThinking: 7 });
    expect(state.open).toEqual([{ index: 0, call: turn.toolCalls[0] }]);
  });
});
