import { afterEach, describe, expect, it } from "vitest";
import type { GenerateResult, JsonValue } from "../../src/models/index.js";
import type { Principal } from "../../src/shared/index.js";
import { alice, runCleanups, stack } from "../support/agent-stack.js";
import { scriptedModel, type ScriptedReply } from "../support/scripted-model.js";

afterEach(runCleanups);

/** A Home Assistant user who is not an administrator. */
const sam: Principal = { id: "sam", name: "Sam", kind: "user", isAdmin: false };

/** The model's second call: it repeats what its tool call gave back. */
const repeatResult: ScriptedReply = (request): GenerateResult => {
  const last = request.conversation.at(-1);
  const text = JSON.stringify(last?.type === "tool_results" ? last.results[0]!.output : null);
  return { turn: { provider: "scripted", model: "s", raw: { text }, text, toolCalls: [] }, text, toolCalls: [], finishReason: "stop", usage: { inputTokens: 10, outputTokens: 5, thinkingTokens: 0, cachedTokens: 0, estimated: false }, durationMs: 1 };
};

/** One turn of `owner`'s session in which the agent calls `tool`; the answer is what the tool gave the agent. */
async function agentReads(owner: Principal, tool: string, args: Record<string, JsonValue>): Promise<string> {
  const s = await stack();
  const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [{ name: tool, args }] }, repeatResult]));
  const session = await s.store.sessions.create({ owner: owner.id });
  const { continuation } = await runtime.send(owner, { sessionId: session.id, message: "what went wrong today?" });
  const done = await runtime.wait(owner, continuation.id, 10_000);
  expect(done.status).toBe("completed");
  return done.response?.finalMessage ?? "";
}

describe("the agent reads Home Assistant as the session's owner may", () => {
  it("gets admin_only from analyze_errors for an owner who is not an administrator, and the log for one who is", async () => {
    const forSam = await agentReads(sam, "analyze_errors", {});
    expect(forSam).toContain('"code":"admin_only"');
    expect(forSam).not.toContain("APS ACK timeout");
    expect(await agentReads(alice, "analyze_errors", {})).toContain("APS ACK timeout");
  });

  it("gets diagnose_entity without log lines, and a note that says why, for an owner who is not an administrator", async () => {
    const forSam = JSON.parse(await agentReads(sam, "diagnose_entity", { entity_id: "switch.garden_fountain_pump" })) as { log_entries: unknown[]; notes: string[] };
    expect(forSam.log_entries).toEqual([]);
    expect(forSam.notes).toEqual([expect.stringContaining("administrators only")]);
  });
});
