import { afterEach, describe, expect, it } from "vitest";
import { silentLogger, systemClock, type Logger } from "../../../src/shared/index.js";
import { ask, recordingSleep } from "../../support/models/openai-harness.js";
import { startFakeOllama, type FakeOllama } from "@ha-agent/model-fakes";
import type { ModelError } from "../../../src/models/errors.js";
import { PendingClient } from "../../../src/models/pending-client.js";
import type { JsonValue } from "../../../src/models/schemas.js";
import type { ModelClient } from "../../../src/models/types.js";
import { createOllamaClient, ollamaTags } from "../../../src/models/ollama/connect.js";
import { OllamaOptionsSchema, type OllamaOptionsInput } from "../../../src/models/ollama/options.js";

type Json = { [key: string]: JsonValue };

const fakes: FakeOllama[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(options: Parameters<typeof startFakeOllama>[0] = {}): Promise<FakeOllama> {
  const server = await startFakeOllama(options);
  fakes.push(server);
  return server;
}

function client(url: string, options: Partial<OllamaOptionsInput> = {}, logger: Logger = silentLogger): Promise<ModelClient> {
  return createOllamaClient(OllamaOptionsSchema.parse({ url, model: "qwen3:8b", ...options }), { clock: systemClock, logger, sleep: recordingSleep().sleep, random: () => 0.5 });
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => err as ModelError);

describe("the Ollama client, on Ollama's own API", () => {
  it("reads the model's window from /api/show and says where the num_ctx came from", async () => {
    const server = await fake();
    const ollama = await client(server.url);
    expect(ollama.facts).toMatchObject({ contextWindow: 16_384, windowSource: expect.stringContaining("qwen3.context_length 40,960 from /api/show") });
    expect(ollama.server).toMatchObject({ kind: "ollama", name: "Ollama 0.13.5", api: "Ollama's own API (/api/chat)" });
    const capped = await client(server.url, { contextTokens: 8_192 });
    expect(capped.facts.contextWindow).toBe(8_192);
  });

  it("streams thinking and text, then a whole tool call with its id, and sends the turn back as Ollama gave it", async () => {
    const server = await fake();
    server.enqueue({ reasoning: "Look it up.", toolCalls: [{ name: "state_query", args: { entity_ids: ["light.kitchen"] } }] }, { text: "It is on." });
    const ollama = await client(server.url);
    const thinking: string[] = [];
    const first = await ollama.generate(ask("Is the kitchen light on?"), { onPartial: (p) => p.thinking && thinking.push(p.thinking) });
    expect(thinking.join("")).toBe("Look it up.");
    expect(first).toMatchObject({ finishReason: "tool_calls", finishDetail: "stop", toolCalls: [{ name: "state_query", args: { entity_ids: ["light.kitchen"] } }] });
    expect(first.toolCalls[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
    const second = await ollama.generate({
      ...ask("Is the kitchen light on?"),
      conversation: [...ask("Is the kitchen light on?").conversation, { type: "model", turn: first.turn }, { type: "tool_results", results: [{ callId: first.toolCalls[0]!.id, name: "state_query", output: { state: "on" }, isError: false }] }],
    });
    expect(second.text).toBe("It is on.");
    const messages = (server.chatRequests().at(-1)!.body as Json).messages as Json[];
    expect(messages.at(-2)).toEqual({ role: "assistant", content: "", thinking: "Look it up.", tool_calls: [{ id: first.toolCalls[0]!.id, function: { index: 0, name: "state_query", arguments: { entity_ids: ["light.kitchen"] } } }] });
    expect(messages.at(-1)).toEqual({ role: "tool", content: '{"state":"on"}', tool_name: "state_query", tool_call_id: first.toolCalls[0]!.id });
  });

  it("answers the same without streaming, and sends temperature only when the user set one", async () => {
    const server = await fake();
    server.enqueue({ text: "Yes." }, { text: "Yes." });
    const whole = await client(server.url, { stream: false, temperature: 0.2 });
    expect((await whole.generate(ask("Hi"))).text).toBe("Yes.");
    expect(server.chatRequests().at(-1)!.body).toMatchObject({ stream: false, options: { temperature: 0.2 } });
    expect(server.chatRequests().at(-1)!.temperature).toBe(0.2);
    await (await client(server.url)).generate(ask("Hi"));
    expect((server.chatRequests().at(-1)!.body as Json).options).not.toHaveProperty("temperature");
  });

  it("an unknown model: lists what Ollama has, or says to pull a model first", async () => {
    const some = await fake({ models: ["llama3.1:8b"] });
    const listed = await failure((await client(some.url)).generate(ask("Hi")));
    expect(listed).toMatchObject({ code: "model_not_found", message: expect.stringContaining('has no model "qwen3:8b". It has llama3.1:8b') });
    const none = await fake({ models: [] });
    const empty = await failure((await client(none.url)).generate(ask("Hi")));
    expect(empty?.message).toContain("pull a model first: `ollama pull qwen3:8b`");
    expect(await ollamaTags({ url: none.url, timeoutMs: 1_000 })).toEqual({ reached: true, models: [], emptyHint: "pull a model first: `ollama pull qwen3:8b`" });
  });

  it("a model that cannot call tools says so in Ollama's words, and is not retried", async () => {
    const server = await fake({ models: ["gemma3:4b"] });
    const refused = await failure((await client(server.url, { model: "gemma3:4b" })).generate(ask("Hi")));
    expect(refused).toMatchObject({ code: "bad_request", message: expect.stringContaining("registry.ollama.ai/library/gemma3:4b does not support tools") });
    expect(server.log.filter((e) => e.path === "/api/chat")).toHaveLength(1);
  });

  it("a prompt over num_ctx is refused (truncate: false), never cut, and the message names model_context_tokens", async () => {
    const server = await fake();
    const small = await client(server.url, { contextTokens: 2_048 });
    const refused = await failure(small.generate(ask("x".repeat(20_000))));
    expect(refused).toMatchObject({ code: "bad_request", message: expect.stringContaining("num_ctx 2048") });
    expect(refused?.message).toContain("model_context_tokens");
  });

  it("retries a busy Ollama, and turns a stream that ends in an error line into an error", async () => {
    const server = await fake();
    server.enqueue({ fault: "unavailable" }, { text: "ok" }, { fault: "mid_stream_error", text: "partly" });
    const ollama = await client(server.url);
    expect((await ollama.generate(ask("Hi"))).text).toBe("ok");
    const broke = await failure(ollama.generate(ask("Hi")));
    expect(broke).toMatchObject({ code: "unavailable", message: expect.stringContaining("llama runner process has terminated") });
  });

  it("while Ollama is down: names ollama_url, and learns the window once it is up", async () => {
    const server = await fake();
    let up = false;
    const gated: typeof fetch = (input, init) => (up ? fetch(input, init) : Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })));
    const ollama = await createOllamaClient(OllamaOptionsSchema.parse({ url: server.url, model: "qwen3:8b", contextTokens: 65_536 }), { clock: systemClock, logger: silentLogger, fetch: gated, sleep: recordingSleep().sleep, random: () => 0.5 });
    expect(ollama).toBeInstanceOf(PendingClient);
    const down = await failure(ollama.generate(ask("Hi")));
    expect(down).toMatchObject({ code: "unavailable", message: expect.stringContaining("ollama_url") });
    up = true;
    server.enqueue({ text: "Up." });
    expect((await ollama.generate(ask("Hi"))).text).toBe("Up.");
    expect(ollama.facts).toMatchObject({ contextWindow: 40_960, windowSource: expect.stringContaining("the model's own maximum") });
  });

  it("aborts at once, streaming or not", async () => {
    const server = await fake();
    server.enqueue({ text: "slow", delayMs: 5_000 });
    const ollama = await client(server.url);
    const controller = new AbortController();
    const pending = failure(ollama.generate(ask("Hi"), { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ code: "aborted" });
  });
});
