import { describe, expect, it } from "vitest";
import { silentLogger, systemClock } from "../../../src/shared/index.js";
import { INVALID_TOOL_ARGS_KEY } from "../../../src/models/schemas.js";
import type { PartialOutput } from "../../../src/models/types.js";
import { OpenAiClient } from "../../../src/models/openai/client.js";
import { OpenAiOptionsSchema } from "../../../src/models/openai/options.js";
import { ask, fixture, streamOf } from "../../support/models/openai-harness.js";

/** The real client, reading a canned answer instead of a socket. */
function clientAnswering(body: string | string[], contentType = "text/event-stream"): OpenAiClient {
  const fetchStub = (async () =>
    new Response(streamOf(Array.isArray(body) ? body : [body]), { status: 200, headers: { "content-type": contentType } })) as typeof fetch;
  return new OpenAiClient(OpenAiOptionsSchema.parse({ baseUrl: "http://ollama.local:11434/v1", model: "qwen3:8b" }), {
    clock: systemClock,
    logger: silentLogger,
    fetch: fetchStub,
  });
}

function sse(...chunks: object[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
}

describe("reading real stream shapes", () => {
  it("OpenAI: fragmented arguments of two parallel calls, reported usage with cached tokens", async () => {
    const result = await clientAnswering(fixture("openai-parallel-tool-calls.sse")).generate(ask("Is the kitchen light ok?"));
    expect(result.toolCalls).toEqual([
      { id: "call_Kx1bV7nQe2LmR9sT4uWy3zAa", name: "state_query", args: { entity_ids: ["light.kitchen"] } },
      { id: "call_Zq2pH8cX1vN5bM3kJ6gF0dSe", name: "diagnose_entity", args: { entity_id: "light.kitchen" } },
    ]);
    expect(result.finishReason).toBe("tool_calls");
    expect(result.usage).toEqual({ inputTokens: 412, outputTokens: 58, thinkingTokens: 0, cachedTokens: 256, estimated: false });
    expect(result.turn.raw).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_Kx1bV7nQe2LmR9sT4uWy3zAa", type: "function", function: { name: "state_query", arguments: '{"entity_ids":["light.kitchen"]}' } },
        { id: "call_Zq2pH8cX1vN5bM3kJ6gF0dSe", type: "function", function: { name: "diagnose_entity", arguments: '{"entity_id":"light.kitchen"}' } },
      ],
    });
  });

  it("Ollama: whole-call deltas and `reasoning` as thinking, with the thinking split estimated", async () => {
    const partials: PartialOutput[] = [];
    const result = await clientAnswering(fixture("ollama-whole-tool-calls.sse")).generate(ask("Is the kitchen light ok?"), { onPartial: (p) => partials.push(p) });
    expect(partials.map((p) => p.thinking).join("")).toBe("The user asks about the kitchen light.");
    expect(result.toolCalls.map((c) => [c.id, c.name, c.args])).toEqual([
      ["call_x7k2m9qa", "state_query", { entity_ids: ["light.kitchen"] }],
      ["call_p3n8d1vb", "diagnose_entity", { entity_id: "light.kitchen" }],
    ]);
    expect(result.turn.raw).toMatchObject({ role: "assistant", content: null, reasoning: "The user asks about the kitchen light." });
    // 71 completion tokens include the thinking; Ollama does not say how many, so that split is estimated.
    expect(result.usage).toEqual({ inputTokens: 388, outputTokens: 61, thinkingTokens: 10, cachedTokens: 0, estimated: true });
  });

  it("llama-server: `reasoning_content`, argument diffs, cached prompt tokens", async () => {
    const result = await clientAnswering(fixture("llama-server-fragmented-tool-calls.sse")).generate(ask("Is the kitchen light ok?"));
    expect(result.toolCalls.map((c) => [c.name, c.args])).toEqual([
      ["state_query", { entity_ids: ["light.kitchen"] }],
      ["diagnose_entity", { entity_id: "light.kitchen" }],
    ]);
    expect(result.turn.raw).toMatchObject({ reasoning_content: "Check the kitchen light first." });
    expect((result.turn.raw as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]?.function.arguments).toBe('{"entity_ids": ["light.kitchen"]}');
    expect(result.usage).toMatchObject({ inputTokens: 401, cachedTokens: 384 });
  });

  it("a proxy's CRLF stream with keep-alive comments", async () => {
    const partials: string[] = [];
    const result = await clientAnswering(fixture("proxy-text-crlf.sse")).generate(ask("Kitchen light?"), { onPartial: (p) => partials.push(p.text ?? "") });
    expect(result.text).toBe("The kitchen light is on at 80% brightness (light.kitchen).");
    expect(partials.length).toBe(5);
    expect(result.finishReason).toBe("stop");
    expect(result.toolCalls).toEqual([]);
    expect(result.turn.raw).toEqual({ role: "assistant", content: "The kitchen light is on at 80% brightness (light.kitchen)." });
    expect(result.usage).toEqual({ inputTokens: 96, outputTokens: 14, thinkingTokens: 0, cachedTokens: 0, estimated: false });
  });

  it("the same fixture split into single bytes reads the same", async () => {
    const bytes = Array.from(new TextEncoder().encode(fixture("openai-parallel-tool-calls.sse")), (b) => new Uint8Array([b]));
    const fetchStub = (async () => new Response(streamOf(bytes), { headers: { "content-type": "text/event-stream" } })) as typeof fetch;
    const client = new OpenAiClient(OpenAiOptionsSchema.parse({ baseUrl: "http://x.local/v1", model: "m" }), { clock: systemClock, logger: silentLogger, fetch: fetchStub });
    const result = await client.generate(ask("?"));
    expect(result.toolCalls.map((c) => c.args)).toEqual([{ entity_ids: ["light.kitchen"] }, { entity_id: "light.kitchen" }]);
  });
});

describe("tool call deltas", () => {
  const head = { id: "x", object: "chat.completion.chunk", model: "m" };
  const delta = (d: object, finish: string | null = null) => ({ ...head, choices: [{ index: 0, delta: d, finish_reason: finish }] });

  it("gives calls without ids generated ids that the raw turn carries too", async () => {
    const result = await clientAnswering(
      sse(delta({ tool_calls: [{ index: 0, type: "function", function: { name: "state_query", arguments: '{"entity_ids":[]}' } }] }), delta({}, "tool_calls")),
    ).generate(ask("?"));
    const id = result.toolCalls[0]?.id ?? "";
    expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect((result.turn.raw as { tool_calls: { id: string }[] }).tool_calls[0]?.id).toBe(id);
  });

  it("keeps two whole calls apart when an old Ollama gives both index 0", async () => {
    const result = await clientAnswering(
      sse(
        delta({ tool_calls: [{ id: "call_a", index: 0, type: "function", function: { name: "state_query", arguments: '{"entity_ids":["a"]}' } }] }),
        delta({ tool_calls: [{ id: "call_b", index: 0, type: "function", function: { name: "state_query", arguments: '{"entity_ids":["b"]}' } }] }),
        delta({}, "tool_calls"),
      ),
    ).generate(ask("?"));
    expect(result.toolCalls.map((c) => [c.id, c.args])).toEqual([
      ["call_a", { entity_ids: ["a"] }],
      ["call_b", { entity_ids: ["b"] }],
    ]);
  });

  it("turns broken argument JSON into a call that carries the text and the problem", async () => {
    const result = await clientAnswering(
      sse(delta({ tool_calls: [{ id: "call_a", index: 0, type: "function", function: { name: "state_query", arguments: '{"entity_ids": ["light.kit' } }] }), delta({}, "tool_calls")),
    ).generate(ask("?"));
    expect(result.finishReason).toBe("tool_calls");
    expect(result.toolCalls[0]?.args).toEqual({
      [INVALID_TOOL_ARGS_KEY]: { text: '{"entity_ids": ["light.kit', problem: expect.stringContaining("not valid JSON") },
    });
  });

  it("reads the deprecated `function_call` delta as a tool call", async () => {
    const result = await clientAnswering(
      sse(delta({ function_call: { name: "state_query", arguments: '{"entity_ids":' } }), delta({ function_call: { arguments: '["a"]}' } }), delta({}, "function_call")),
    ).generate(ask("?"));
    expect(result.finishReason).toBe("tool_calls");
    expect(result.toolCalls.map((c) => [c.name, c.args])).toEqual([["state_query", { entity_ids: ["a"] }]]);
  });

  it("maps finish reasons: length, content_filter (with a refusal), unknown, and a refusal field", async () => {
    const finish = async (reason: string, extra: object = {}) => clientAnswering(sse(delta({ content: "Hi", ...extra }), delta({}, reason))).generate(ask("?"));
    expect((await finish("length")).finishReason).toBe("length");
    const filtered = await finish("content_filter");
    expect([filtered.finishReason, filtered.refusal]).toEqual(["safety", "The server's content filter stopped the answer."]);
    expect((await finish("eos_token")).finishReason).toBe("other");
    const refused = await clientAnswering(sse(delta({ content: null, refusal: "I can't help" }), delta({ refusal: " with that." }), delta({}, "stop"))).generate(ask("?"));
    expect([refused.finishReason, refused.refusal]).toEqual(["safety", "I can't help with that."]);
    expect(refused.turn.raw).toEqual({ role: "assistant", content: "", refusal: "I can't help with that." });
  });

  it("reads a JSON answer even when it asked for a stream", async () => {
    const body = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "Plain." }, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 2 } });
    const result = await clientAnswering(body, "application/json").generate(ask("?"));
    expect([result.text, result.finishReason, result.usage.estimated]).toEqual(["Plain.", "stop", false]);
  });
});
