import { afterEach, describe, expect, it } from "vitest";
import type { JsonValue } from "../json.js";
import { streamFixture as fixture } from "../fixtures.js";
import { startFakeOpenAiServer, type FakeAnswer, type FakeFlavour, type FakeOpenAiServer } from "./index.js";

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAiServer>[0] = {}): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(options);
  servers.push(server);
  return server;
}

function post(server: FakeOpenAiServer, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

const USER = [{ role: "user", content: "Is the kitchen light ok?" }];

/** The structure of a stream: per chunk, its keys and value types (finish reasons by value), runs of equal chunks collapsed. */
function shape(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trim())
      .join("\n");
    if (data === "" || data === "[DONE]") continue;
    const s = JSON.stringify(skeleton(JSON.parse(data) as JsonValue));
    if (out[out.length - 1] !== s) out.push(s);
  }
  return out;
}

function skeleton(value: JsonValue, key = ""): JsonValue {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.map((v) => skeleton(v));
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, skeleton(value[k] as JsonValue, k)]),
    );
  }
  if (key === "finish_reason" || key === "role" || key === "type" || key === "object") return value;
  return typeof value;
}

const KITCHEN_CALLS: FakeAnswer["toolCalls"] = [
  { name: "state_query", args: { entity_ids: ["light.kitchen"] } },
  { name: "diagnose_entity", args: { entity_id: "light.kitchen" } },
];

describe("the fake's streams have the shapes of the real servers", () => {
  const cases: [FakeFlavour, string, FakeAnswer][] = [
    ["openai", "openai-parallel-tool-calls.sse", { toolCalls: KITCHEN_CALLS }],
    ["ollama", "ollama-whole-tool-calls.sse", { reasoning: "The user asks about the kitchen light.", toolCalls: KITCHEN_CALLS }],
    ["llama-server", "llama-server-fragmented-tool-calls.sse", { reasoning: "Check the kitchen light first.", toolCalls: KITCHEN_CALLS }],
  ];
  for (const [flavour, file, answer] of cases) {
    it(`${flavour} matches ${file}`, async () => {
      const server = await fake({ flavour });
      server.enqueue(answer);
      const response = await post(server, {
        model: server.models[0],
        messages: USER,
        stream: true,
        stream_options: { include_usage: true },
        parallel_tool_calls: true,
      });
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      expect(shape(await response.text())).toEqual(shape(fixture(file)));
    });
  }
});

describe("fake OpenAI-compatible server", () => {
  it("sends a usage chunk only when stream_options.include_usage asks for it", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ text: "Hi there." }, { text: "Hi there." });
    const without = await (await post(server, { model: "qwen3:8b", messages: USER, stream: true })).text();
    const withUsage = await (await post(server, { model: "qwen3:8b", messages: USER, stream: true, stream_options: { include_usage: true } })).text();
    expect(without).not.toContain('"usage"');
    expect(withUsage).toContain('"usage":{"prompt_tokens"');
  });

  it("llama-server makes parallel calls only when parallel_tool_calls is true", async () => {
    const server = await fake({ flavour: "llama-server" });
    server.enqueue({ toolCalls: KITCHEN_CALLS }, { toolCalls: KITCHEN_CALLS });
    const calls = async (body: object) => {
      const json = (await (await post(server, { model: "any-name", messages: USER, ...body })).json()) as { choices: { message: { tool_calls: unknown[] } }[] };
      return json.choices[0]?.message.tool_calls.length;
    };
    expect(await calls({})).toBe(1);
    expect(await calls({ parallel_tool_calls: true })).toBe(2);
  });

  it("answers without streaming in each flavour's message shape", async () => {
    const bodies: Record<string, unknown> = {};
    for (const flavour of ["openai", "ollama", "llama-server"] as const) {
      const server = await fake({ flavour });
      server.enqueue({ text: "Done.", reasoning: "Easy." });
      bodies[flavour] = await (await post(server, { model: server.models[0], messages: USER })).json();
    }
    expect(bodies.openai).toMatchObject({ object: "chat.completion", choices: [{ message: { role: "assistant", content: "Done.", refusal: null, annotations: [] }, finish_reason: "stop" }] });
    expect(bodies.openai).not.toHaveProperty("choices.0.message.reasoning");
    expect(bodies.ollama).toMatchObject({ system_fingerprint: "fp_ollama", choices: [{ message: { content: "Done.", reasoning: "Easy." } }], usage: { prompt_tokens: expect.any(Number) } });
    expect(bodies["llama-server"]).toMatchObject({ choices: [{ message: { content: "Done.", reasoning_content: "Easy." } }] });
  });

  it("holds every flavour to the rule that tool calls are answered, in OpenAI's words", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ text: "never sent" });
    const messages = [
      ...USER,
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "state_query", arguments: "{}" } }] },
      { role: "user", content: "And?" },
    ];
    const response = await post(server, { model: "qwen3:8b", messages });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1",
    );
    expect(server.pending()).toBe(1);
    const orphan = await post(server, { model: "qwen3:8b", messages: [...USER, { role: "tool", tool_call_id: "call_9", content: "{}" }] });
    expect(((await orphan.json()) as { error: { message: string } }).error.message).toContain("must be a response to a preceeding message with 'tool_calls'");
  });

  it("Ollama refuses tool call arguments in the history that are not JSON", async () => {
    const server = await fake({ flavour: "ollama" });
    const messages = [
      ...USER,
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "state_query", arguments: '{"broken' } }] },
      { role: "tool", tool_call_id: "call_1", content: "{}" },
    ];
    const response = await post(server, { model: "qwen3:8b", messages });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { message: "invalid tool call arguments", type: "invalid_request_error", param: null, code: null } });
  });

  it("checks the key as OpenAI does, echoing only a masked form; Ollama checks none", async () => {
    const key = "sk-fake-0123456789abcdefWXYZ";
    const openai = await fake({ flavour: "openai", apiKey: key });
    const missing = await post(openai, { model: "gpt-4.1-mini", messages: USER });
    expect(missing.status).toBe(401);
    const wrong = await post(openai, { model: "gpt-4.1-mini", messages: USER }, { authorization: "Bearer sk-wrong-0123456789abcd" });
    const body = (await wrong.json()) as { error: { message: string; code: string } };
    expect([wrong.status, body.error.code]).toEqual([401, "invalid_api_key"]);
    expect(body.error.message).toMatch(/^Incorrect API key provided: sk-wro\*+abcd\./);
    expect(openai.log.map((e) => e.outcome)).toEqual(["auth", "auth"]);

    const ollama = await fake({ flavour: "ollama", apiKey: key });
    ollama.enqueue({ text: "ok" });
    expect((await post(ollama, { model: "qwen3:8b", messages: USER })).status).toBe(200);
  });

  it("answers an unknown model in each server's words; llama-server takes any name", async () => {
    const ollama = await fake({ flavour: "ollama" });
    const missing = await post(ollama, { model: "qwen9:1b", messages: USER });
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { error: { message: 'model "qwen9:1b" not found, try pulling it first', type: "not_found_error", param: null, code: null } },
    ]);
    const openai = await fake({ flavour: "openai" });
    const body = (await (await post(openai, { model: "gpt-9", messages: USER })).json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: "model_not_found", message: "The model `gpt-9` does not exist or you do not have access to it." });
    const llama = await fake({ flavour: "llama-server" });
    llama.enqueue({ text: "ok" });
    expect((await post(llama, { model: "whatever", messages: USER })).status).toBe(200);
  });

  it("lists its models, and refuses with a clear 400 when nothing is scripted", async () => {
    const server = await fake({ flavour: "openai", models: ["gpt-4o-mini", "gpt-4.1"] });
    const list = (await (await fetch(`${server.baseUrl}/models`)).json()) as { data: { id: string }[] };
    expect(list.data.map((m) => m.id)).toEqual(["gpt-4o-mini", "gpt-4.1"]);
    const response = await post(server, { model: "gpt-4.1", messages: USER });
    expect(response.status).toBe(400);
    expect(server.log.at(-1)?.outcome).toBe("no_script");
  });

  it("lists models as Ollama and llama-server do: Ollama four fields, llama-server both conventions with the training length, its slot's window in /props", async () => {
    const ollama = await fake({ flavour: "ollama", models: ["qwen3:8b"] });
    const fromOllama = (await (await fetch(`${ollama.baseUrl}/models`)).json()) as { object: string; data: Record<string, unknown>[] };
    expect(fromOllama).toEqual({ object: "list", data: [{ id: "qwen3:8b", object: "model", created: expect.any(Number), owned_by: "library" }] });
    const llama = await fake({ flavour: "llama-server", contextSize: 8_192 });
    // llama-server answers with and without /v1, and without a key even when it has one.
    for (const path of ["/v1/models", "/models"]) {
      const fromLlama = (await (await fetch(`${llama.url}${path}`)).json()) as { models: { name: string }[]; object: string; data: { id: string; owned_by: string; meta: Record<string, number> }[] };
      expect(fromLlama.object).toBe("list");
      expect(fromLlama.models.map((m) => m.name)).toEqual(["Qwen3-8B-Q4_K_M.gguf"]);
      expect(fromLlama.data[0]).toMatchObject({ id: "Qwen3-8B-Q4_K_M.gguf", owned_by: "llamacpp", meta: { n_ctx_train: 40_960 } });
      expect(fromLlama.data[0]!.meta).not.toHaveProperty("n_ctx");
    }
    const props = (await (await fetch(`${llama.url}/props`)).json()) as { default_generation_settings: { n_ctx: number } };
    expect(props.default_generation_settings.n_ctx).toBe(8_192);
  });

  it("uses a responder when the queue is empty, and sends Retry-After with a 429", async () => {
    const server = await fake({ flavour: "openai", responder: (req) => ({ text: `echo ${req.messages.length}` }) });
    server.enqueue({ fault: "rate_limit", retryAfter: 3, retryAfterMs: 2500 });
    const limited = await post(server, { model: "gpt-4.1-mini", messages: USER });
    expect([limited.status, limited.headers.get("retry-after"), limited.headers.get("retry-after-ms")]).toEqual([429, "3", "2500"]);
    const answered = (await (await post(server, { model: "gpt-4.1-mini", messages: USER })).json()) as { choices: { message: { content: string } }[] };
    expect(answered.choices[0]?.message.content).toBe("echo 1");
  });
});
