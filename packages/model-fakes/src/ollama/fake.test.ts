import { afterEach, describe, expect, it } from "vitest";
import type { JsonValue } from "../json.js";
import { startFakeOllama, type FakeOllama } from "./index.js";

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

const post = (url: string, body: object) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const TOOLS = [{ type: "function", function: { name: "state_query", description: "States.", parameters: { type: "object" } } }];
const SYSTEM = { role: "system", content: "You are HA Agent. ".repeat(200) };

describe("the fake Ollama: its own API", () => {
  it("answers /api/version, /api/tags, /api/show and /api/ps in Ollama's shapes", async () => {
    const server = await fake();
    expect(await (await fetch(`${server.url}/api/version`)).json()).toEqual({ version: "0.13.5" });
    expect(((await (await fetch(`${server.url}/api/tags`)).json()) as { models: { name: string }[] }).models.map((m) => m.name)).toEqual(["qwen3:8b"]);
    const show = (await (await post(`${server.url}/api/show`, { model: "qwen3:8b" })).json()) as Json;
    expect(show).toMatchObject({ model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40_960 }, capabilities: ["completion", "tools", "thinking"] });
    expect((await post(`${server.url}/api/show`, { model: "nope" })).status).toBe(404);
    expect(await (await fetch(`${server.url}/api/ps`)).json()).toEqual({ models: [] });
  });

  it("streams /api/chat as NDJSON: text pieces, each call whole with an id and object arguments, then done with the counts; the model loads with the num_ctx asked", async () => {
    const server = await fake();
    server.enqueue({ text: "Checking.", toolCalls: [{ name: "state_query", args: { entity_ids: ["light.a"] } }] });
    const response = await post(`${server.url}/api/chat`, { model: "qwen3:8b", messages: [{ role: "user", content: "Hi" }], tools: TOOLS, options: { num_ctx: 8_192 } });
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await response.text()).trim().split("\n").map((l) => JSON.parse(l) as Json);
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: "stop", prompt_eval_count: expect.any(Number), eval_count: expect.any(Number) });
    const call = lines.find((l) => (l.message as Json).tool_calls)!;
    expect((call.message as Json).tool_calls).toEqual([{ id: expect.stringMatching(/^call_[a-z0-9]{8}$/), function: { index: 0, name: "state_query", arguments: { entity_ids: ["light.a"] } } }]);
    const ps = (await (await fetch(`${server.url}/api/ps`)).json()) as { models: { name: string; context_length: number }[] };
    expect(ps.models).toMatchObject([{ name: "qwen3:8b", context_length: 8_192 }]);
  });

  it("runs at 4,096 tokens unless asked, cutting old messages first and then the start of the prompt, the instructions and tools with it", async () => {
    const server = await fake();
    server.respondWith(() => ({ text: "?" }));
    const long = (n: number) => ({ role: "user", content: "words ".repeat(n) });
    // Dropping the old message is enough: the instructions and tools stay.
    await post(`${server.url}/api/chat`, { model: "qwen3:8b", stream: false, messages: [SYSTEM, long(2_000), { role: "assistant", content: "ok" }, { role: "user", content: "Which lights?" }], tools: TOOLS });
    expect(server.chatRequests().at(-1)!.seen).toMatchObject({ truncated: true, window: 4_096, system: expect.stringContaining("You are HA Agent"), tools: ["state_query"] });
    expect(server.chatRequests().at(-1)!.seen!.messages.map((m) => m.content)).toEqual(["ok", "Which lights?"]);
    // The last message alone is too long: the start of the prompt goes, the instructions and tools first.
    await post(`${server.url}/api/chat`, { model: "qwen3:8b", stream: false, messages: [SYSTEM, long(3_000)], tools: TOOLS });
    expect(server.chatRequests().at(-1)!.seen).toMatchObject({ truncated: true, system: undefined, tools: [] });
    // With num_ctx big enough, nothing is cut; with truncate: false, a prompt too long is refused.
    await post(`${server.url}/api/chat`, { model: "qwen3:8b", stream: false, messages: [SYSTEM, long(3_000)], tools: TOOLS, options: { num_ctx: 16_384 } });
    expect(server.chatRequests().at(-1)!.seen).toMatchObject({ truncated: false, tools: ["state_query"] });
    const refused = await post(`${server.url}/api/chat`, { model: "qwen3:8b", stream: false, messages: [SYSTEM, long(3_000)], tools: TOOLS, truncate: false });
    expect([refused.status, ((await refused.json()) as Json).error]).toEqual([400, "the request exceeds the available context size, try increasing it"]);
  });

  it("runs at the Modelfile's temperature unless asked, refuses tools for a model without them, and text arguments in the history", async () => {
    const server = await fake({ models: ["qwen3:8b", "gemma3:4b"] });
    server.respondWith(() => ({ text: "ok" }));
    await post(`${server.url}/api/chat`, { model: "qwen3:8b", stream: false, messages: [{ role: "user", content: "Hi" }] });
    expect(server.chatRequests().at(-1)!.temperature).toBe(0.6);
    const noTools = await post(`${server.url}/api/chat`, { model: "gemma3:4b", messages: [{ role: "user", content: "Hi" }], tools: TOOLS });
    expect([noTools.status, ((await noTools.json()) as Json).error]).toEqual([400, "registry.ollama.ai/library/gemma3:4b does not support tools"]);
    const text = await post(`${server.url}/api/chat`, { model: "qwen3:8b", messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "", tool_calls: [{ function: { name: "x", arguments: "{}" } }] }] });
    expect(text.status).toBe(400);
  });
});

describe("the fake Ollama: its /v1", () => {
  it('answers "data": null with nothing pulled', async () => {
    const server = await fake({ models: [] });
    expect(await (await fetch(`${server.v1Url}/models`)).json()).toEqual({ object: "list", data: null });
  });

  it("cannot set num_ctx (the server's default holds) and runs at temperature 1.0 when the request sets none", async () => {
    const server = await fake({ defaultContext: 8_192 });
    server.respondWith(() => ({ text: "ok" }));
    await post(`${server.v1Url}/chat/completions`, { model: "qwen3:8b", messages: [{ role: "user", content: "Hi" }], options: { num_ctx: 32_768 } });
    expect(server.chatRequests().at(-1)).toMatchObject({ temperature: 1, seen: { window: 8_192 } });
    await post(`${server.v1Url}/chat/completions`, { model: "qwen3:8b", messages: [{ role: "user", content: "Hi" }], temperature: 0.3 });
    expect(server.chatRequests().at(-1)!.temperature).toBe(0.3);
  });
});
