import { afterEach, describe, expect, it } from "vitest";
import type { JsonValue } from "../json.js";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "./index.js";

type Json = { [key: string]: JsonValue };

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAiServer>[0]): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer({ responder: () => ({ toolCalls: [{ name: "state_query", args: { entity_ids: ["light.a"] } }] }), ...options });
  servers.push(server);
  return server;
}

function post(server: FakeOpenAiServer, body: object, key?: string): Promise<Response> {
  return fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(body) });
}

const TOOLS = [{ type: "function", function: { name: "state_query", description: "States.", parameters: { type: "object" } } }];
const USER = [{ role: "user", content: "Is the kitchen light on?" }];

describe("vLLM", () => {
  it("lists max_model_len, refuses tools without its flags, and a prompt plus max_tokens over the window", async () => {
    const plain = await fake({ flavour: "vllm", contextSize: 4_096 });
    expect(((await (await fetch(`${plain.baseUrl}/models`)).json()) as { data: Json[] }).data[0]).toMatchObject({ owned_by: "vllm", max_model_len: 4_096 });
    const refused = await post(plain, { model: "Qwen/Qwen3-8B", messages: USER, tools: TOOLS });
    expect([refused.status, ((await refused.json()) as { error: Json }).error.message]).toEqual([400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set']);
    const flagged = await fake({ flavour: "vllm", contextSize: 4_096, autoToolChoice: true });
    const tooMuch = await post(flagged, { model: "Qwen/Qwen3-8B", messages: USER, tools: TOOLS, max_tokens: 4_096 });
    expect(tooMuch.status).toBe(400);
    expect(((await tooMuch.json()) as { error: Json }).error.message).toMatch(/maximum context length is 4096 tokens and your request has \d+ input tokens/);
    expect((await post(flagged, { model: "Qwen/Qwen3-8B", messages: USER, tools: TOOLS, max_tokens: 1_000 })).status).toBe(200);
  });
});

describe("LM Studio", () => {
  it("streams a tool call as text in the content (finish stop), and sends it as tool_calls without streaming", async () => {
    const server = await fake({ flavour: "lmstudio" });
    const streamed = await (await post(server, { model: "qwen/qwen3-8b", messages: USER, tools: TOOLS, stream: true })).text();
    expect(streamed).toContain("<tool_call>");
    expect(streamed).not.toContain('"tool_calls"');
    expect(streamed).toContain('"finish_reason":"stop"');
    const whole = (await (await post(server, { model: "qwen/qwen3-8b", messages: USER, tools: TOOLS })).json()) as { choices: { message: Json; finish_reason: string }[] };
    expect(whole.choices[0]).toMatchObject({ finish_reason: "tool_calls", message: { tool_calls: [{ function: { name: "state_query" } }] } });
    expect(((await (await fetch(`${server.url}/api/v0/models`)).json()) as { data: Json[] }).data[0]).toMatchObject({ state: "loaded", loaded_context_length: 16_384 });
  });
});

describe("Gemini through Google's OpenAI-compatible endpoint", () => {
  const KEY = "AIzaKey";

  it("answers errors as JSON arrays: a wrong key with 400, an unknown field by name", async () => {
    const server = await fake({ flavour: "gemini-openai", apiKey: KEY });
    const wrong = await post(server, { model: "gemini-3.8-flash", messages: USER }, "AIzaWrong");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual([{ error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT" } }]);
    const unknown = await post(server, { model: "gemini-3.8-flash", messages: [{ role: "user", content: "Hi", reasoning: "x" }] }, KEY);
    expect(((await unknown.json()) as { error: Json }[])[0]!.error.message).toBe('Invalid JSON payload received. Unknown name "reasoning": Cannot find field.');
  });

  it("signs each tool call in extra_content and refuses the next step without the signature", async () => {
    const server = await fake({ flavour: "gemini-openai", apiKey: KEY });
    const first = (await (await post(server, { model: "gemini-3.8-flash", messages: USER, tools: TOOLS }, KEY)).json()) as { choices: { message: { tool_calls: Json[] } }[] };
    const call = first.choices[0]!.message.tool_calls[0]!;
    expect(call.extra_content).toMatchObject({ google: { thought_signature: expect.any(String) } });
    const history = (c: Json) => [...USER, { role: "assistant", content: null, tool_calls: [c] }, { role: "tool", tool_call_id: call.id, content: "{}" }];
    const { extra_content: _dropped, ...unsigned } = call;
    const refused = await post(server, { model: "gemini-3.8-flash", messages: history(unsigned), tools: TOOLS }, KEY);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("missing a thought_signature");
    expect((await post(server, { model: "gemini-3.8-flash", messages: history(call), tools: TOOLS }, KEY)).status).toBe(200);
  });
});

describe("a Mistral-family chat template", () => {
  it("raises on two user messages in a row, as llama-server answers it (500), and accepts alternating roles", async () => {
    const server = await fake({ flavour: "llama-server", chatTemplate: "mistral" });
    const twoUsers = await post(server, { model: "m", messages: [{ role: "system", content: "s" }, { role: "user", content: "hint" }, { role: "user", content: "q" }] });
    expect([twoUsers.status, ((await twoUsers.json()) as { error: Json }).error.message]).toEqual([500, "Conversation roles must alternate user/assistant/user/assistant/..."]);
    const ok = await post(server, { model: "m", messages: [{ role: "system", content: "s" }, { role: "user", content: "hint\n\nq" }] });
    expect(ok.status).toBe(200);
  });
});
