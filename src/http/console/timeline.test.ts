import { describe, expect, it } from "vitest";
import { replay, usageOf, withFold, type JournalRecord } from "../../agent/index.js";
import type { ContinuationRecord } from "../../store/index.js";
import { buildTimeline, journalUsage } from "./timeline.js";

const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 20, thinkingTokens: 4, cachedTokens: 0, estimated: false });
const call = (id: string) => ({ id, name: "state_query", args: { entity_id: "light.kitchen" } });
const model = (step: number, calls: number): JournalRecord => ({
  type: "model_response",
  detail: { step, turn: { provider: "demo", model: "demo", raw: null, text: calls ? "" : "All done.", toolCalls: Array.from({ length: calls }, (_, i) => call(`c${step}${i}`)) }, usage: usage(1_000), finishReason: calls ? "tool_calls" : "stop", durationMs: 30, wrapUp: false },
});
const tool = (step: number): JournalRecord[] => [
  { type: "tool_call", detail: { step, index: 0, call: call(`c${step}0`), action: false } },
  { type: "tool_result", detail: { step, index: 0, result: { callId: `c${step}0`, name: "state_query", output: { state: "on" }, isError: false }, durationMs: 2 } },
];

/** Three calls and three tools, then the memory fold the fourth exchange of a session makes after the answer. */
const journal: JournalRecord[] = [model(1, 1), ...tool(1), model(2, 1), ...tool(2), model(3, 1), ...tool(3), model(4, 0), { type: "summary", detail: { summary: "Asked about the kitchen.", usage: usage(300), durationMs: 12 } }];

describe("a turn's timeline", () => {
  it("lists every model call the header counts, the memory fold included, and their tokens add up to the header's", () => {
    const fold = journal.find((r) => r.type === "summary")!;
    const counted = withFold(usageOf(replay(journal).counters, "demo/demo"), fold.type === "summary" ? fold.detail : { summary: "" });
    const record = { id: "01J00000000000000000000001", sessionId: "S", owner: "u", status: "completed", request: { message: "Which lights?" }, createdAt: 0, updatedAt: 0, usage: counted, response: { finalMessage: "All done." } } as unknown as ContinuationRecord;
    const t = buildTimeline(record, journal, true);
    const calls = t.entries.filter((e) => e.kind === "model" || e.kind === "memory");
    expect(calls).toHaveLength(t.usage.modelCalls);
    expect(t.entries.filter((e) => e.kind === "tool")).toHaveLength(t.usage.toolCalls);
    const listed = calls.reduce((n, e) => n + e.tokensIn + e.tokensOut + e.tokensThinking, 0);
    expect(listed).toBe(t.usage.tokensIn + t.usage.tokensOut + t.usage.tokensThinking);
    expect(t.entries.at(-1)).toEqual({ kind: "memory", call: 5, tokensIn: 300, tokensOut: 20, tokensThinking: 4, durationMs: 12 });
    // While a turn is open the journal is counted the same way.
    expect(journalUsage(journal)).toEqual(t.usage);
  });
});
