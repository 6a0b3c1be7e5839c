import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAiServer, type FakeFlavour, type FakeOpenAiOptions, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import { INVALID_TOOL_ARGS_KEY, type ConversationItem, type JsonValue } from "../../../src/models/schemas.js";
import type { PartialOutput } from "../../../src/models/types.js";
import { ask, clientFor, TOOLS } from "../../support/models/openai-harness.js";

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: FakeOpenAiOptions): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer({ apiKey: "sk-test-conformance-0123456789", ...options });
  servers.push(server);
  return server;
}

type Json = { [key: string]: JsonValue };
const messagesOf = (server: FakeOpenAiServer, n: number): Json[] => (server.chatRequests()[n]?.body?.messages ?? []) as Json[];
/** What a journal does to a turn: JSON out, JSON back. */
const journaled = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const FLAVOURS: FakeFlavour[] = ["openai", "ollama", "llama-server"];

for (const flavour of FLAVOURS) {
  for (const stream of [true, false]) {
    describe(`${flavour}, ${stream ? "streaming" : "not streaming"}`, () => {
      it("answers in text, reports deltas, and reads the usage the server reports", async () => {
        const server = await fake({ flavour });
        server.enqueue({ text: "The kitchen light is on (light.kitchen).", usage: { promptTokens: 120, completionTokens: 9, cachedTokens: 64 } });
        const partials: PartialOutput[] = [];
        const result = await clientFor(server, { stream }).generate(ask("Kitchen light?"), { onPartial: (p) => partials.push(p) });
        expect(result.text).toBe("The kitchen light is on (light.kitchen).");
        expect(partials.map((p) => p.text ?? "").join("")).toBe(result.text);
        if (stream) expect(partials.length).toBeGreaterThan(1);
        expect(result.finishReason).toBe("stop");
        expect(result.toolCalls).toEqual([]);
        const cached = flavour === "ollama" ? 0 : 64;
        expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 9, thinkingTokens: 0, cachedTokens: cached, estimated: false });
        expect(result.turn).toMatchObject({ provider: "openai", model: server.models[0], raw: { role: "assistant", content: result.text } });
        expect(result.durationMs).toBeGreaterThanOrEqual(0);
      });

      it("reads parallel tool calls", async () => {
        const server = await fake({ flavour });
        server.enqueue({
          toolCalls: [
            { name: "state_query", args: { entity_ids: ["light.kitchen", "light.hall"] } },
            { name: "diagnose_entity", args: { entity_id: "light.kitchen" } },
          ],
        });
        const result = await clientFor(server, { stream }).generate(ask("Why is the kitchen dark?"));
        expect(result.finishReason).toBe("tool_calls");
        expect(result.toolCalls.map((c) => [c.name, c.args])).toEqual([
          ["state_query", { entity_ids: ["light.kitchen", "light.hall"] }],
          ["diagnose_entity", { entity_id: "light.kitchen" }],
        ]);
        expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(2);
      });

      it("round-trips a three-step tool conversation, sending raw turns back verbatim", async () => {
        const server = await fake({ flavour });
        server.enqueue(
          {
            reasoning: "Look at the light and why it is off.",
            toolCalls: [
              { name: "state_query", args: { entity_ids: ["light.kitchen"] } },
              { name: "diagnose_entity", argumentsText: '{"entity_id": "light.kitchen"}' },
            ],
          },
          { reasoning: "The bulb is unavailable; check the hub.", toolCalls: [{ name: "state_query", args: { entity_ids: ["zigbee.hub"] } }] },
          { text: "The kitchen light (light.kitchen) is unavailable because the Zigbee hub (zigbee.hub) is offline." },
        );
        const client = clientFor(server, { stream });
        const conversation: ConversationItem[] = [{ type: "user", text: "Why is the kitchen dark?" }];

        const first = await client.generate({ system: "Be brief.", conversation, tools: TOOLS });
        expect(first.toolCalls).toHaveLength(2);
        conversation.push({ type: "model", turn: journaled(first.turn) });
        conversation.push({
          type: "tool_results",
          results: [
            { callId: first.toolCalls[1]?.id ?? "", name: "diagnose_entity", output: { problem: "unavailable" }, isError: false },
            { callId: first.toolCalls[0]?.id ?? "", name: "state_query", output: [{ entity_id: "light.kitchen", state: "unavailable" }], isError: false },
          ],
        });
        const second = await client.generate({ system: "Be brief.", conversation, tools: TOOLS });
        conversation.push({ type: "model", turn: journaled(second.turn) });
        conversation.push({
          type: "tool_results",
          results: [{ callId: second.toolCalls[0]?.id ?? "", name: "state_query", output: { error: { code: "not_found", message: "No such entity" } }, isError: true }],
        });
        const third = await client.generate({ system: "Be brief.", conversation, tools: TOOLS });
        expect(third.text).toContain("zigbee.hub");
        expect(third.finishReason).toBe("stop");

        // The fake's log proves what went over the wire: each raw turn exactly as it came.
        expect(server.chatRequests().map((r) => r.status)).toEqual([200, 200, 200]);
        const sent = messagesOf(server, 2);
        expect(sent[0]).toEqual({ role: "system", content: "Be brief." });
        expect(sent[2]).toEqual(first.turn.raw);
        expect(sent[5]).toEqual(second.turn.raw);
        expect(messagesOf(server, 1)[2]).toEqual(first.turn.raw);
        expect((first.turn.raw as Json).tool_calls).toMatchObject([{}, { function: { arguments: '{"entity_id": "light.kitchen"}' } }]);
        expect(sent[3]).toEqual({ role: "tool", tool_call_id: first.toolCalls[1]?.id, content: '{"problem":"unavailable"}' });
        expect(sent[6]).toEqual({ role: "tool", tool_call_id: second.toolCalls[0]?.id, content: '{"error":{"code":"not_found","message":"No such entity"}}' });
        if (flavour === "ollama") expect(first.turn.raw).toMatchObject({ reasoning: "Look at the light and why it is off." });
        if (flavour === "llama-server") expect(first.turn.raw).toMatchObject({ reasoning_content: "Look at the light and why it is off." });
        if (flavour === "openai") expect(Object.keys(first.turn.raw as Json).sort()).toEqual(["content", "role", "tool_calls"]);
      });
    });
  }
}

describe("thinking", () => {
  for (const flavour of ["ollama", "llama-server"] as const) {
    it(`${flavour}: streamed thinking reaches onPartial and the usage splits it off the output`, async () => {
      const server = await fake({ flavour });
      server.enqueue({ reasoning: "The user wants the hall. Check the hall light.", text: "The hall light is off.", usage: { promptTokens: 50, completionTokens: 40 } });
      const thinking: string[] = [];
      const result = await clientFor(server).generate(ask("Hall?"), { onPartial: (p) => p.thinking && thinking.push(p.thinking) });
      expect(thinking.join("")).toBe("The user wants the hall. Check the hall light.");
      expect(result.text).toBe("The hall light is off.");
      // Neither server counts thinking apart, so its share of the 40 is estimated (46 chars / 4).
      expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 28, thinkingTokens: 12, cachedTokens: 0, estimated: true });
    });
  }

  it("openai: reasoning_tokens from completion_tokens_details", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ text: "Off.", usage: { promptTokens: 30, completionTokens: 200, reasoningTokens: 192 } });
    const result = await clientFor(server).generate(ask("Hall?"));
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 8, thinkingTokens: 192, cachedTokens: 0, estimated: false });
  });
});

describe("usage", () => {
  it("is estimated and marked so when the server reports none", async () => {
    const server = await fake({ flavour: "llama-server" });
    server.enqueue({ text: "A short answer of forty characters long.", reasoning: "Twelve chars", usage: false });
    const request = ask("Kitchen?");
    const result = await clientFor(server).generate(request);
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.outputTokens).toBe(10);
    expect(result.usage.thinkingTokens).toBe(3);
    expect(result.usage.inputTokens).toBeGreaterThan(20);
  });

  it("is asked for in streams with stream_options.include_usage, with tools, parallel calls and limits in the body", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ text: "ok" }, { text: "ok" });
    await clientFor(server).generate(ask("?", { maxOutputTokens: 512, temperature: 0.2 }));
    await clientFor(server).generate({ system: "", conversation: [{ type: "user", text: "?" }] });
    const [withTools, bare] = server.chatRequests().map((r) => r.body ?? {});
    expect(withTools).toMatchObject({
      model: "gpt-4.1-mini",
      stream: true,
      stream_options: { include_usage: true },
      parallel_tool_calls: true,
      max_tokens: 512,
      temperature: 0.2,
      tools: [{ type: "function", function: { name: "state_query", description: "Current states of entities.", parameters: TOOLS[0]?.parameters } }, {}],
    });
    expect(bare).not.toHaveProperty("tools");
    expect(bare).not.toHaveProperty("parallel_tool_calls");
    expect(bare?.messages).toEqual([{ role: "user", content: "?" }]);
    expect(server.chatRequests().every((r) => r.authorized)).toBe(true);
  });
});

describe("tool calls a model got wrong", () => {
  it("broken argument JSON is a call the agent can answer, and the next request still passes Ollama's checks", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ toolCalls: [{ name: "state_query", argumentsText: '{"entity_ids": ["light.kitchen"' }] }, { text: "Sorry, fixed." });
    const client = clientFor(server);
    const first = await client.generate(ask("Kitchen?"));
    const call = first.toolCalls[0];
    expect(call?.args).toEqual({ [INVALID_TOOL_ARGS_KEY]: { text: '{"entity_ids": ["light.kitchen"', problem: expect.stringContaining("not valid JSON") } });
    expect(first.turn.raw).toMatchObject({ tool_calls: [{ function: { arguments: '{"entity_ids": ["light.kitchen"' } }] });
    const second = await client.generate({
      ...ask("Kitchen?"),
      conversation: [
        { type: "user", text: "Kitchen?" },
        { type: "model", turn: first.turn },
        { type: "tool_results", results: [{ callId: call?.id ?? "", name: "state_query", output: { error: { code: "invalid_arguments", message: "not JSON" } }, isError: true }] },
      ],
    });
    expect(second.text).toBe("Sorry, fixed.");
    // Ollama refuses unparsable argument text in the history, so only that text is replaced by {}.
    expect(messagesOf(server, 1)[2]).toEqual({ ...(first.turn.raw as Json), tool_calls: [{ id: call?.id, type: "function", function: { name: "state_query", arguments: "{}" } }] });
  });

  it("calls without ids get ids of ours that the tool results then answer", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ toolCalls: [{ name: "state_query", args: { entity_ids: ["a"] }, id: null }] }, { text: "done" });
    const client = clientFor(server);
    const first = await client.generate(ask("?"));
    const id = first.toolCalls[0]?.id ?? "";
    expect(id).toMatch(/^call_/);
    await client.generate({
      ...ask("?"),
      conversation: [
        { type: "user", text: "?" },
        { type: "model", turn: first.turn },
        { type: "tool_results", results: [{ callId: id, name: "state_query", output: [], isError: false }] },
      ],
    });
    expect(messagesOf(server, 1)[3]).toEqual({ role: "tool", tool_call_id: id, content: "[]" });
  });
});

describe("other providers' turns and other wire habits", () => {
  it("renders a turn of another provider from its text and tool calls", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ text: "Carrying on." });
    await clientFor(server).generate({
      system: "s",
      tools: TOOLS,
      conversation: [
        { type: "user", text: "?" },
        {
          type: "model",
          turn: { provider: "gemini", model: "gemini-2.5-flash", raw: { role: "model", parts: [] }, text: "", toolCalls: [{ id: "g1", name: "state_query", args: { entity_ids: ["x"] } }] },
        },
        { type: "tool_results", results: [{ callId: "g1", name: "state_query", output: "ok", isError: false }] },
      ],
    });
    expect(messagesOf(server, 0)[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "g1", type: "function", function: { name: "state_query", arguments: '{"entity_ids":["x"]}' } }],
    });
    expect(server.chatRequests()[0]?.status).toBe(200);
  });

  it("reads CRLF streams with keep-alive comments over a real socket", async () => {
    const server = await fake({ flavour: "openai", lineEnding: "\r\n", keepAliveComments: true });
    server.enqueue({ text: "Fine, thanks.", toolCalls: [{ name: "state_query", args: { entity_ids: ["sun.sun"] } }] });
    const result = await clientFor(server).generate(ask("?"));
    expect([result.text, result.toolCalls[0]?.args]).toEqual(["Fine, thanks.", { entity_ids: ["sun.sun"] }]);
  });

  it("accepts a base URL without /v1 (llama-server's own address)", async () => {
    const server = await fake({ flavour: "llama-server" });
    server.enqueue({ text: "hi" });
    const result = await clientFor(server, { baseUrl: `${server.url}/` }).generate(ask("?"));
    expect(result.text).toBe("hi");
    expect(server.chatRequests()[0]?.path).toBe("/v1/chat/completions");
  });

  it("a refusal and a content filter stop are safety results, not errors", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ refusal: "I can't help with unlocking that door." }, { text: "Here is how to", finishReason: "content_filter" });
    const client = clientFor(server);
    const refused = await client.generate(ask("Unlock the neighbour's door"));
    expect([refused.finishReason, refused.refusal]).toEqual(["safety", "I can't help with unlocking that door."]);
    const filtered = await client.generate(ask("?"));
    expect([filtered.finishReason, filtered.text]).toEqual(["safety", "Here is how to"]);
    expect(filtered.refusal).toBeTruthy();
  });

  it("waits for a slow server", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ text: "Eventually.", delayMs: 150 });
    expect((await clientFor(server).generate(ask("?"))).text).toBe("Eventually.");
  });
});
