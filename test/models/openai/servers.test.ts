import { afterEach, describe, expect, it } from "vitest";
import { silentLogger, systemClock } from "../../../src/shared/index.js";
import { ask, clientFor, recordingSleep } from "../../support/models/openai-harness.js";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import type { ModelError } from "../../../src/models/errors.js";
import type { JsonValue } from "../../../src/models/schemas.js";
import { OpenAiClient } from "../../../src/models/openai/client.js";
import { connectOpenAiCompatible } from "../../../src/models/openai/connect.js";
import { OpenAiOptionsSchema } from "../../../src/models/openai/options.js";
import { probeServer } from "../../../src/models/openai/probe.js";

type Json = { [key: string]: JsonValue };

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAiServer>[0]): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(options);
  servers.push(server);
  return server;
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => err as ModelError);

/** A server that answers every chat request with this status and body, for shapes no fake flavour sends. */
function answering(status: number, body: string, type = "application/json"): typeof fetch {
  return async () => new Response(body, { status, headers: { "content-type": type } });
}

function bare(fetcher: typeof fetch): OpenAiClient {
  return new OpenAiClient(OpenAiOptionsSchema.parse({ baseUrl: "http://llm.lan:8000/v1", model: "m" }), { clock: systemClock, logger: silentLogger, fetch: fetcher, sleep: recordingSleep().sleep, random: () => 0.5 });
}

describe("the OpenAI-compatible client meets each server as it is", () => {
  it("reads tool-call arguments sent as a JSON object, streamed or whole", async () => {
    const whole = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "state_query", arguments: { entity_ids: ["light.a"] } } }] }, finish_reason: "tool_calls" }] });
    const result = await bare(answering(200, whole)).generate(ask("Hi"), { stream: false });
    expect(result.toolCalls).toEqual([{ id: "c1", name: "state_query", args: { entity_ids: ["light.a"] } }]);
    expect(result.turn.raw).toMatchObject({ tool_calls: [{ function: { arguments: '{"entity_ids":["light.a"]}' } }] });
    const sse = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "c2", type: "function", function: { name: "state_query", arguments: { entity_ids: ["light.b"] } } }] } }] })}\n\ndata: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] })}\n\ndata: [DONE]\n\n`;
    expect((await bare(answering(200, sse, "text/event-stream")).generate(ask("Hi"))).toolCalls[0]!.args).toEqual({ entity_ids: ["light.b"] });
  });

  it("shows the server's words from an error body that is a JSON array, or plain text", async () => {
    const array = await failure(bare(answering(400, '[{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \\"reasoning\\": Cannot find field.","status":"INVALID_ARGUMENT"}}]')).generate(ask("Hi")));
    expect(array?.message).toContain('Unknown name "reasoning": Cannot find field.');
    const text = await failure(bare(answering(400, "context window exceeded by 12 tokens", "text/plain")).generate(ask("Hi")));
    expect(text?.message).toContain("context window exceeded by 12 tokens");
  });

  it("llama-server without --jinja: one 500, not retried, and an error that says to restart it with --jinja", async () => {
    const server = await fake({ flavour: "llama-server", jinja: false });
    const refused = await failure(clientFor(server).generate(ask("Hi")));
    expect(refused).toMatchObject({ code: "server_setup", status: 500, message: expect.stringContaining("Restart llama-server with --jinja") });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("vLLM without its tool flags: names both flags, not retried", async () => {
    const server = await fake({ flavour: "vllm" });
    const refused = await failure(clientFor(server).generate(ask("Hi")));
    expect(refused).toMatchObject({ code: "server_setup", message: expect.stringContaining("--enable-auto-tool-choice --tool-call-parser") });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("o4-mini refuses parallel_tool_calls once: sent again without it at once, and never again", async () => {
    const server = await fake({ flavour: "openai", models: ["o4-mini"] });
    server.respondWith(() => ({ text: "ok" }));
    const client = clientFor(server, { baseUrl: server.baseUrl });
    await client.generate({ ...ask("Hi"), maxOutputTokens: 100 });
    await client.generate({ ...ask("Hi"), maxOutputTokens: 100 });
    const chats = server.chatRequests();
    expect(chats.map((e) => e.outcome)).toEqual(["unsupported_parameter", "unsupported_parameter", "answer", "answer"]);
    expect(chats[2]!.body).not.toHaveProperty("parallel_tool_calls");
    expect(chats[3]!.body).toMatchObject({ max_completion_tokens: 100 });
    expect(chats[3]!.body).not.toHaveProperty("parallel_tool_calls");
  });

  it("keeps a tool call's unknown fields (Gemini's extra_content) and sends them back verbatim, without streaming too", async () => {
    const server = await fake({ flavour: "gemini-openai", apiKey: "AIzaKey" });
    server.enqueue({ toolCalls: [{ name: "state_query", args: { entity_ids: ["light.a"] } }] }, { text: "on" });
    const client = clientFor(server, { stream: false });
    const first = await client.generate(ask("Hi"));
    const call = (first.turn.raw as { tool_calls: Json[] }).tool_calls[0]!;
    expect(call.extra_content).toMatchObject({ google: { thought_signature: expect.any(String) } });
    const second = await client.generate({ ...ask("Hi"), conversation: [...ask("Hi").conversation, { type: "model", turn: first.turn }, { type: "tool_results", results: [{ callId: first.toolCalls[0]!.id, name: "state_query", output: {}, isError: false }] }] });
    expect(second.text).toBe("on");
  });

  it("reads the window where each server keeps it: llama-server's /props, vLLM's max_model_len, LM Studio's loaded context", async () => {
    const llama = await fake({ flavour: "llama-server", contextSize: 12_288 });
    expect(await probeServer({ baseUrl: llama.baseUrl, model: "x" })).toMatchObject({ kind: "llama-server", window: { tokens: 12_288, source: expect.stringContaining("/props") } });
    const vllm = await fake({ flavour: "vllm", apiKey: "k", contextSize: 8_192 });
    expect(await probeServer({ baseUrl: vllm.baseUrl, apiKey: "k", model: "Qwen/Qwen3-8B" })).toMatchObject({ kind: "vllm", window: { tokens: 8_192 } });
    const lm = await fake({ flavour: "lmstudio", contextSize: 20_000 });
    expect(await probeServer({ baseUrl: lm.baseUrl, model: "qwen/qwen3-8b" })).toMatchObject({ kind: "lmstudio", window: { tokens: 20_000 } });
    expect(await probeServer({ baseUrl: "http://127.0.0.1:9/v1", model: "x", timeoutMs: 500 })).toMatchObject({ reached: false });
  });

  it("only Ollama's /v1 answering (a proxy): sends a temperature, since /v1 would run at 1.0, and warns that the window cannot be set", async () => {
    const server = await fake({ flavour: "ollama", models: ["qwen3:8b"] });
    server.enqueue({ text: "ok" });
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (...args: unknown[]) => void warnings.push(String(args.at(-1))) } as typeof silentLogger;
    const client = await connectOpenAiCompatible(OpenAiOptionsSchema.parse({ baseUrl: server.baseUrl, model: "qwen3:8b" }), { clock: systemClock, logger });
    await client.generate(ask("Hi"));
    expect(server.chatRequests()[0]!.body).toMatchObject({ temperature: 0.8 });
    expect(warnings.join("\n")).toContain("cannot set the context window");
  });
});
