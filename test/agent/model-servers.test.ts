import { afterEach, describe, expect, it } from "vitest";
import { MIN_TOOL_WINDOW, type JsonValue } from "../../src/models/index.js";
import { demoPlan } from "../../src/models/demo/planner.js";
import { startFakeGemini, startFakeOllama, startFakeOpenAiServer, type FakeLogEntry, type FakeOllama, type FakeOpenAiServer, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { callTool } from "../support/mcp.js";
import { lightsPlanner } from "../support/models/planner.js";
import { startStack, type Stack } from "../support/stack.js";

type Json = { [key: string]: JsonValue };

/**
 * One agent turn that needs tools, per real server, against the fake that
 * behaves like it, in the settings a user would write. The fake model reads
 * only what the model would see, so a server that cut the instructions or
 * refused the conversation shows in the answer.
 */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function stackWith(env: Record<string, string>): Promise<Stack> {
  const stack = await startStack({ env });
  closers.push(() => stack.close());
  return stack;
}

async function ollama(options: Parameters<typeof startFakeOllama>[0] = {}): Promise<FakeOllama> {
  const server = await startFakeOllama({ responder: lightsPlanner, ...options });
  closers.push(() => server.close());
  return server;
}

async function openai(options: Parameters<typeof startFakeOpenAiServer>[0]): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer({ responder: lightsPlanner, ...options });
  closers.push(() => server.close());
  return server;
}

/** Asks which kitchen lights are on and waits for the turn's record. */
async function askKitchen(stack: Stack): Promise<Record<string, unknown>> {
  const sessionId = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
  const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "Which lights are on in the kitchen?" });
  expect(sent.isError, sent.text).toBe(false);
  return (await callTool(stack.client, "ha_agent_await_continuation", { continuation_id: sent.value.continuation_id, timeout_ms: 60_000 })).value;
}

/** The turn completed, naming exactly the kitchen lights the simulated home has on. */
function expectKitchenAnswer(record: Record<string, unknown>, stack: Stack): void {
  expect(record.status, JSON.stringify(record.error)).toBe("completed");
  const answer = (record.response as { final_message: string }).final_message;
  const on = stack.sim.home.states().filter((s) => s.entity_id.startsWith("light.kitchen") && s.state === "on").map((s) => s.entity_id);
  expect(on.length).toBeGreaterThan(0);
  expect(answer).toBe(`On in the kitchen: ${on.join(", ")}.`);
}

/** The turn's chat requests (the start-up check asks without tools). */
function turnRequests(log: FakeLogEntry[]): FakeLogEntry[] {
  return log.filter((e) => /chat(\/completions)?$/.test(e.path) && Array.isArray(e.body?.tools) && e.body.tools.length > 0);
}

/** The model saw HA Agent's instructions and its tools whole, and the question. */
function expectEverythingSeen(entries: FakeLogEntry[]): void {
  expect(entries.length).toBeGreaterThan(0);
  for (const entry of entries) {
    expect(entry.seen?.truncated, entry.path).toBe(false);
    expect(entry.seen?.system).toContain("You are HA Agent");
    expect(entry.seen?.tools).toContain("state_query");
    expect(entry.seen?.messages.some((m) => m.role === "user" && String(m.content).includes("Which lights are on in the kitchen?"))).toBe(true);
  }
}

describe("Ollama", () => {
  it("model_provider: ollama: Ollama's own API with a num_ctx that holds the prompt, the model's own temperature, keep_alive as set", async () => {
    const server = await ollama();
    const stack = await stackWith({ MODEL_PROVIDER: "ollama", OLLAMA_URL: server.url, MODEL: "qwen3:8b", KEEP_ALIVE: "-1" });
    expectKitchenAnswer(await askKitchen(stack), stack);
    const turn = turnRequests(server.log);
    expect(turn.map((e) => e.path)).toEqual(["/api/chat", "/api/chat"]);
    expectEverythingSeen(turn);
    for (const entry of turn) {
      const body = entry.body as Json;
      // 16,384 fits the qwen3 model (40,960) and HA Agent's requests; -1 goes as a number, as Ollama wants it.
      expect(body).toMatchObject({ options: { num_ctx: 16_384 }, truncate: false, keep_alive: -1 });
      expect(body.options).not.toHaveProperty("temperature");
      expect(entry.temperature).toBe(0.6);
    }
    // The second request is longer than Ollama's default 4,096, which is why num_ctx is sent.
    expect(turn[1]!.seen!.tokens).toBeGreaterThan(4_096);
    // The instructions and tools alone leave room in the smallest window HA Agent calls big enough.
    expect(turn[0]!.seen!.tokens).toBeLessThan(MIN_TOOL_WINDOW / 2);
  });

  it("model_provider: openai with …/v1: Ollama is recognised and spoken to through its own API, so nothing is cut", async () => {
    const server = await ollama();
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.v1Url, MODEL: "qwen3:8b" });
    expectKitchenAnswer(await askKitchen(stack), stack);
    const turn = turnRequests(server.log);
    expect(turn.map((e) => e.path)).toEqual(["/api/chat", "/api/chat"]);
    expect(server.log.some((e) => e.path === "/v1/chat/completions")).toBe(false);
    expectEverythingSeen(turn);
  });

  it("the fake cuts /v1 prompts as Ollama does: the same request on /v1 loses the instructions and the tools", async () => {
    const server = await ollama();
    const stack = await stackWith({ MODEL_PROVIDER: "ollama", OLLAMA_URL: server.url, MODEL: "qwen3:8b" });
    await askKitchen(stack);
    const last = turnRequests(server.log).at(-1)!;
    const { messages, tools } = { messages: (last.body as Json).messages as Json[], tools: (last.body as Json).tools };
    // The same conversation in OpenAI's shape (arguments as text), sent to Ollama's /v1, which cannot set num_ctx.
    const asOpenAi = messages.map((m) => (Array.isArray(m.tool_calls) ? { ...m, tool_calls: m.tool_calls.map((c) => ({ id: (c as Json).id, type: "function", function: { name: ((c as Json).function as Json).name, arguments: JSON.stringify(((c as Json).function as Json).arguments) } })) } : m));
    server.enqueue({ text: "?" });
    const response = await fetch(`${server.v1Url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "qwen3:8b", messages: asOpenAi, tools }) });
    expect(response.status).toBe(200);
    const seen = server.log.at(-1)!.seen!;
    expect(seen).toMatchObject({ truncated: true, system: undefined, tools: [], window: 4_096 });
    expect(server.log.at(-1)!.temperature).toBe(1);
  });
});

describe("llama-server", () => {
  it("with --jinja and a Mistral-family template: the roles alternate, so the template accepts every request; the window is /props'", async () => {
    const server = await openai({ flavour: "llama-server", models: ["Ministral-8B-Instruct-Q4_K_M.gguf"], chatTemplate: "mistral", contextSize: 16_384 });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.url });
    expectKitchenAnswer(await askKitchen(stack), stack);
    expect(server.chatRequests().every((e) => e.status === 200)).toBe(true);
    expect(server.log.some((e) => e.path === "/props")).toBe(true);
    // Prompt plus output fits the slot's 16,384.
    for (const entry of turnRequests(server.log)) expect(entry.seen!.tokens + ((entry.body as Json).max_tokens as number)).toBeLessThanOrEqual(16_384);
  });

  it("without --jinja: the turn fails at once with an error that names the flag, and the refusal is not retried", async () => {
    const server = await openai({ flavour: "llama-server", jinja: false });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl });
    const record = await askKitchen(stack);
    expect(record.status).toBe("failed");
    expect(record.error).toMatchObject({ code: "model_server_setup", message: expect.stringContaining("Restart llama-server with --jinja") });
    expect(server.chatRequests().filter((e) => e.outcome === "no_jinja")).toHaveLength(1);
  });
});

describe("vLLM", () => {
  it("started with --enable-auto-tool-choice --tool-call-parser and an 8k max_model_len: every request's prompt and max_tokens fit", async () => {
    const server = await openai({ flavour: "vllm", models: ["mistralai/Ministral-8B-Instruct-2410"], autoToolChoice: true, contextSize: 8_192, chatTemplate: "mistral" });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, MODEL: "mistralai/Ministral-8B-Instruct-2410" });
    expectKitchenAnswer(await askKitchen(stack), stack);
    expect(server.chatRequests().map((e) => e.status)).toEqual([200, 200, 200]);
    expect(server.log.some((e) => e.path === "/v1/models")).toBe(true);
  });

  it("started without the tool flags: the turn fails naming --enable-auto-tool-choice and --tool-call-parser, not retried", async () => {
    const server = await openai({ flavour: "vllm", models: ["Qwen/Qwen3-8B"] });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, MODEL: "Qwen/Qwen3-8B" });
    const record = await askKitchen(stack);
    expect(record.status).toBe("failed");
    expect((record.error as { message: string }).message).toMatch(/--enable-auto-tool-choice --tool-call-parser/);
    expect(server.chatRequests().filter((e) => e.outcome === "no_auto_tool_choice")).toHaveLength(1);
  });
});

describe("LM Studio", () => {
  it("with model_stream off (its streamed tool calls arrive as text): whole answers, and the tool calls work", async () => {
    const server = await openai({ flavour: "lmstudio" });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, MODEL: "qwen/qwen3-8b", MODEL_STREAM: "false" });
    expectKitchenAnswer(await askKitchen(stack), stack);
    expect(turnRequests(server.log).every((e) => (e.body as Json).stream === false)).toBe(true);
  });
});

describe("OpenAI's o-series", () => {
  it("o4-mini refuses parallel_tool_calls and max_tokens: each is dropped or renamed once, and not sent again", async () => {
    const server = await openai({ flavour: "openai", apiKey: "sk-test-key-0123456789abcdef", models: ["o4-mini"] });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "sk-test-key-0123456789abcdef", MODEL: "o4-mini" });
    expectKitchenAnswer(await askKitchen(stack), stack);
    const chats = server.chatRequests();
    expect(chats.filter((e) => e.outcome === "unsupported_parameter").length).toBeLessThanOrEqual(2);
    const answered = chats.filter((e) => e.status === 200 && Array.isArray(e.body?.tools));
    expect(answered).toHaveLength(2);
    for (const entry of answered) {
      expect(entry.body).not.toHaveProperty("parallel_tool_calls");
      expect(entry.body).not.toHaveProperty("max_tokens");
      expect(entry.body).toHaveProperty("max_completion_tokens");
    }
  });
});

describe("Gemini through Google's OpenAI-compatible endpoint", () => {
  it("keeps each tool call's extra_content (the thought signature) and sends it back, so the second step is accepted", async () => {
    const server = await openai({ flavour: "gemini-openai", apiKey: "AIzaGeminiOpenAiKey0000000000000000000" });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "AIzaGeminiOpenAiKey0000000000000000000", MODEL: "gemini-3.8-flash" });
    expectKitchenAnswer(await askKitchen(stack), stack);
    const second = turnRequests(server.log).filter((e) => e.status === 200).at(-1)!;
    const assistant = ((second.body as Json).messages as Json[]).find((m) => m.role === "assistant" && Array.isArray(m.tool_calls))!;
    for (const call of assistant.tool_calls as Json[]) expect(call).toMatchObject({ extra_content: { google: { thought_signature: expect.any(String) } } });
  });

  it("shows the words of an error body that is a JSON array, and names the option for a refused key", async () => {
    const server = await openai({ flavour: "gemini-openai", apiKey: "AIzaGeminiOpenAiKey0000000000000000000" });
    const stack = await stackWith({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "AIzaWrongWrongWrongWrongWrongWrong0000", MODEL: "gemini-3.8-flash" });
    const record = await askKitchen(stack);
    expect(record.status).toBe("failed");
    expect((record.error as { message: string }).message).toContain("API key not valid. Please pass a valid API key.");
    expect((record.error as { message: string }).message).toContain("openai_api_key");
  });
});

describe("Gemini through @google/genai", () => {
  const KEY = "AIzaNativeGeminiKey000000000000000000000";
  const malformed: GeminiReply = { finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: "Malformed function call: state_query(domain='light'" };

  async function gemini(first: GeminiReply[]): Promise<{ url: string; requests: { body: GeminiRequestBody; status: number }[] }> {
    const queue = [...first];
    const server = await startFakeGemini({ apiKey: KEY, responder: (body) => (body.tools?.length && queue.length ? queue.shift()! : demoPlan(body)) });
    closers.push(() => server.close());
    return server;
  }

  it("a MALFORMED_FUNCTION_CALL with nothing in it is asked for once more, with a note, and the turn answers; nothing empty is sent back", async () => {
    const server = await gemini([malformed]);
    const stack = await stackWith({ MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url });
    const record = await askKitchen(stack);
    expect(record.status, JSON.stringify(record.error)).toBe("completed");
    expect((record.response as { final_message: string }).final_message).toContain("light.kitchen_worktop_lights");
    // Every request was accepted: the fake refuses an empty text part, and a missing or altered signature.
    expect(server.requests.every((r) => r.status === 200)).toBe(true);
    const withTools = server.requests.filter((r) => r.body.tools?.length);
    expect(withTools[1]!.body.systemInstruction?.parts?.[0]?.text).toContain("ended (MALFORMED_FUNCTION_CALL) with no text and no tool call");
    expect(withTools[1]!.body.contents).toEqual(withTools[0]!.body.contents);
  });

  it("a second empty answer fails the turn with model_empty_answer, naming the finish reason, instead of completing with nothing", async () => {
    const server = await gemini([malformed, { finishReason: "MAX_TOKENS" }]);
    const stack = await stackWith({ MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: server.url });
    const record = await askKitchen(stack);
    expect(record.status).toBe("failed");
    expect(record.error).toMatchObject({ code: "model_empty_answer", message: expect.stringContaining("MALFORMED_FUNCTION_CALL, then MAX_TOKENS") });
    expect(record).not.toHaveProperty("response");
  });
});
