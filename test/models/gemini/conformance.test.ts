import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger, systemClock } from "../../../src/shared/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply } from "@ha-agent/model-fakes";
import type { ConversationItem, GenerateRequest, JsonValue, ToolDeclaration } from "../../../src/models/index.js";
import type { ModelError } from "../../../src/models/errors.js";
import { GeminiClient } from "../../../src/models/gemini/client.js";
import { GeminiOptionsSchema } from "../../../src/models/gemini/options.js";

const KEY = "AIzaFakeKeyForTests0123456789abcdefghij";
let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(replies: GeminiReply[], opts: { key?: string; model?: string } = {}) {
  fake = await startFakeGemini({ apiKey: KEY, replies });
  const waits: number[] = [];
  const client = new GeminiClient(GeminiOptionsSchema.parse({ apiKey: opts.key ?? KEY, baseUrl: fake.url, model: opts.model ?? "gemini-3.5-flash" }), {
    clock: systemClock,
    logger: silentLogger,
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
  });
  return { fake, client, waits };
}

const tools: ToolDeclaration[] = [
  { name: "index_search", description: "Search", parameters: { type: "object", properties: { query: { type: "string" } } } },
  { name: "state_query", description: "States", parameters: { type: "object", properties: { area: { type: "string" } } } },
];
const ask = (conversation: ConversationItem[]): GenerateRequest => ({ system: "You help.", conversation, tools });

describe("Gemini through @google/genai against the fake", () => {
  it("round-trips a three-step tool conversation, sending raw turns back verbatim with their signatures", async () => {
    const { fake, client } = await setup([
      { thought: "Find the lights first.", calls: [{ name: "index_search", args: { query: "kitchen lights" } }] },
      { calls: [{ name: "state_query", args: { area: "kitchen" } }, { name: "state_query", args: { area: "hall" } }] },
      { text: "light.kitchen_ceiling is on." },
    ]);
    const thinking: string[] = [];
    const conversation: ConversationItem[] = [{ type: "user", text: "Which lights are on?" }];
    const first = await client.generate(ask(conversation), { onPartial: (p) => p.thinking && thinking.push(p.thinking) });
    expect(first).toMatchObject({ finishReason: "tool_calls", toolCalls: [{ name: "index_search", args: { query: "kitchen lights" } }], usage: { estimated: false } });
    expect(thinking).toEqual(["Find the lights first."]);
    conversation.push({ type: "model", turn: first.turn }, { type: "tool_results", results: [{ callId: first.toolCalls[0]!.id, name: "index_search", output: { results: [] }, isError: false }] });

    const second = await client.generate(ask(conversation));
    expect(second.toolCalls.map((c) => c.args)).toEqual([{ area: "kitchen" }, { area: "hall" }]);
    conversation.push({ type: "model", turn: second.turn }, { type: "tool_results", results: second.toolCalls.map((c) => ({ callId: c.id, name: c.name, output: { ok: true }, isError: false })) });

    const third = await client.generate(ask(conversation));
    expect(third).toMatchObject({ text: "light.kitchen_ceiling is on.", finishReason: "stop" });
    // The last chunk carried only a signature; it is kept in the raw turn.
    expect((third.turn.raw as { parts: Record<string, unknown>[] }).parts.at(-1)).toMatchObject({ text: "", thoughtSignature: expect.any(String) });
    // The fake checked every signature; the third request holds the first two turns exactly as received.
    const sent = fake.requests[2]!.body.contents!;
    expect(sent[1]).toEqual(first.turn.raw);
    expect(sent[3]).toEqual(second.turn.raw);
    expect(fake.requests.every((r) => r.status === 200 && r.stream)).toBe(true);
  });

  it("gets Gemini's 400 when a signature is missing or altered, as a bad_request that is not retried", async () => {
    const { fake, client } = await setup([{ calls: [{ name: "index_search", args: { query: "x" } }] }, { text: "never" }, { text: "never" }]);
    const first = await client.generate(ask([{ type: "user", text: "q" }]));
    const raw = first.turn.raw as { role: string; parts: Record<string, JsonValue>[] };
    const results: ConversationItem = { type: "tool_results", results: [{ callId: first.toolCalls[0]!.id, name: "index_search", output: {}, isError: false }] };
    const stripped = { ...first.turn, raw: { ...raw, parts: raw.parts.map(({ thoughtSignature: _s, ...p }) => p) } };
    const missing = await client.generate(ask([{ type: "user", text: "q" }, { type: "model", turn: stripped }, results])).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "bad_request", message: expect.stringContaining("missing a thought_signature") });
    const altered = { ...first.turn, raw: { ...raw, parts: raw.parts.map((p) => ({ ...p, thoughtSignature: "AAAA" })) } };
    const corrupt = await client.generate(ask([{ type: "user", text: "q" }, { type: "model", turn: altered }, results])).catch((e: unknown) => e);
    expect(corrupt).toMatchObject({ code: "bad_request", message: expect.stringContaining("Corrupted thought signature") });
    expect(fake.requests).toHaveLength(3);
  });

  it("refuses a function-call turn without its responses, as Gemini does", async () => {
    const { client } = await setup([{ calls: [{ name: "index_search" }] }]);
    const first = await client.generate(ask([{ type: "user", text: "q" }]));
    const err = await client.generate(ask([{ type: "user", text: "q" }, { type: "model", turn: first.turn }, { type: "user", text: "and?" }])).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "bad_request", message: expect.stringContaining("function call turn comes immediately after") });
  });

  it("honours RetryInfo on 429, backs off on 500 and 503, then answers", async () => {
    const { fake, client, waits } = await setup([{ fault: "rate_limit", retryDelay: "7s" }, { fault: "server_error" }, { fault: "unavailable" }, { text: "ok" }]);
    const result = await client.generate(ask([{ type: "user", text: "q" }]));
    expect(result.text).toBe("ok");
    expect(waits[0]).toBe(7_000);
    expect(waits.slice(1)).toEqual([1_500, 3_000]);
    expect(fake.requests).toHaveLength(4);
  });

  it("does not retry a wrong key or an unknown model, and names the option in words without the key", async () => {
    const wrong = await setup([{ text: "never" }], { key: "AIzaWrongKey000000000000000000000000000" });
    const auth = (await wrong.client.generate(ask([{ type: "user", text: "q" }])).catch((e: unknown) => e)) as ModelError;
    expect(auth).toMatchObject({ code: "auth", message: expect.stringContaining("gemini_api_key") });
    expect(auth.message).not.toContain("AIzaWrongKey");
    expect(auth.stack ?? "").not.toContain(auth.message.slice(0, 0) + "AIzaWrongKey");
    expect(wrong.fake.requests).toHaveLength(0);
    await wrong.fake.close();
    const { fake: f2, client } = await setup([{ text: "never" }], { model: "gemini-0-nonexistent" });
    const missing = await client.generate(ask([{ type: "user", text: "q" }])).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "model_not_found", message: expect.stringContaining("gemini-0-nonexistent") });
    expect(f2.requests).toHaveLength(1);
  });

  it("does not retry a stream that broke after output, and reports a safety stop or a blocked prompt as a result", async () => {
    const { fake, client } = await setup([{ text: "one two three four five six seven eight nine", fault: "mid_stream_error" }, { text: "half", fault: "safety" }, { fault: "prompt_blocked" }]);
    const broken = await client.generate(ask([{ type: "user", text: "q" }])).catch((e: unknown) => e);
    expect(broken).toMatchObject({ code: "unavailable" });
    expect(fake.requests).toHaveLength(1);
    const safety = await client.generate(ask([{ type: "user", text: "q" }]));
    expect(safety).toMatchObject({ finishReason: "safety", refusal: expect.stringContaining("SAFETY") });
    const blocked = await client.generate(ask([{ type: "user", text: "q" }]));
    expect(blocked).toMatchObject({ finishReason: "safety", refusal: expect.stringContaining("blocked") });
  });

  it("stops at once when aborted mid-stream, and the fake sees the client go away", async () => {
    const { fake, client } = await setup([{ text: "a b c d e f g h i j k l m n o p q r s t", chunkDelayMs: 300 }]);
    const controller = new AbortController();
    const started = Date.now();
    const call = client.generate(ask([{ type: "user", text: "q" }]), { signal: controller.signal, onPartial: () => controller.abort() });
    await expect(call).rejects.toMatchObject({ code: "aborted" });
    expect(Date.now() - started).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests[0]!.disconnected).toBe(true);
  });

  it("counts tokens with the provider's own count", async () => {
    const { client } = await setup([]);
    expect(await client.countTokens(ask([{ type: "user", text: "hello there" }]))).toMatchObject({ estimated: false });
  });
});

describe("Gemini calls and the caller's signal", () => {
  it("leave no listener on the signal they were given once they are over, so Node can let it go", async () => {
    // The agent's signal is AbortSignal.any([turn, timeout]): Node holds such a signal for good while it has an abort listener.
    const { client } = await setup([{ text: "It is 21 °C." }]);
    const signal = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(60_000)]);
    const result = await client.generate(ask([{ type: "user", text: "How warm is it?" }]), { signal });
    expect(result.text).toBe("It is 21 °C.");
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});
