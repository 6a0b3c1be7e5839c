import { afterEach, describe, expect, it } from "vitest";
import { silentLogger, systemClock } from "../../../src/shared/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply } from "@ha-agent/model-fakes";
import type { ConversationItem, ModelTurn } from "../../../src/models/index.js";
import { GeminiClient } from "../../../src/models/gemini/client.js";
import { GeminiOptionsSchema } from "../../../src/models/gemini/options.js";
import { toContents } from "../../../src/models/gemini/wire.js";

const KEY = "AIzaFakeKeyForTests0123456789abcdefghij";
let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function client(replies: GeminiReply[]): Promise<GeminiClient> {
  fake = await startFakeGemini({ apiKey: KEY, replies });
  return new GeminiClient(GeminiOptionsSchema.parse({ apiKey: KEY, baseUrl: fake.url, model: "gemini-3.5-flash" }), { clock: systemClock, logger: silentLogger, sleep: async () => {}, random: () => 0.5 });
}

const memory = (text: string): ModelTurn => ({ provider: "memory", model: "memory", raw: null, text, toolCalls: [] });

describe("what Gemini is sent: nothing empty, tool errors once", () => {
  it("leaves out empty texts and turns with nothing in them, and keeps a signature-only part", () => {
    const own: ModelTurn = { provider: "gemini", model: "m", raw: { role: "model", parts: [{ text: "Hi." }, { text: "" }, { text: "", thoughtSignature: "sig" }] }, text: "Hi.", toolCalls: [] };
    const contents = toContents([{ type: "user", text: "" }, { type: "model", turn: memory("") }, { type: "user", text: "q" }, { type: "model", turn: own }], "gemini");
    expect(contents).toEqual([{ role: "user", parts: [{ text: "q" }] }, { role: "model", parts: [{ text: "Hi." }, { text: "", thoughtSignature: "sig" }] }]);
  });

  it("sends a failed tool's {error} as the response itself, not inside a second error", () => {
    const items: ConversationItem[] = [{ type: "tool_results", results: [{ callId: "c1", name: "state_query", output: { error: { code: "not_found", message: "No such entity." } }, isError: true }] }];
    expect(toContents(items, "gemini")[0]!.parts![0]!.functionResponse!.response).toEqual({ error: { code: "not_found", message: "No such entity." } });
  });

  it("reports MALFORMED_FUNCTION_CALL as an answer with nothing in it, naming Gemini's reason, and the fake refuses an empty text part", async () => {
    const gemini = await client([{ finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: "Malformed function call" }]);
    const result = await gemini.generate({ system: "s", conversation: [{ type: "user", text: "q" }] });
    expect(result).toMatchObject({ text: "", toolCalls: [], finishReason: "other", finishDetail: "MALFORMED_FUNCTION_CALL" });
    const refused = await fetch(`${fake!.url}/v1beta/models/gemini-3.5-flash:generateContent`, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": KEY }, body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "" }] }] }) });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("required oneof field 'data' must have one initialized field");
  });

  it("does not call LANGUAGE a safety stop", async () => {
    const gemini = await client([{ text: "Je", finishReason: "LANGUAGE" }]);
    const result = await gemini.generate({ system: "s", conversation: [{ type: "user", text: "q" }] });
    expect(result.finishReason).toBe("other");
    expect(result).not.toHaveProperty("refusal");
  });
});
