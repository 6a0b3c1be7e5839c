import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, startFakeOllama, type FakeOllama, echoResponder, startFakeOpenAiServer, type FakeOpenAiServer } from "@ha-agent/model-fakes";

const cli = join(import.meta.dirname, "..", "..", "dist", "models", "check-cli.js");
const GEMINI_KEY = "AIzaCheckKey00000000000000000000000000";
/** Runs the CLI without blocking this process, which serves the fakes it talks to. */
const run = (env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [cli], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", DATA_DIR: "/tmp/unused", HA_URL: "http://127.0.0.1:9", HA_TOKEN: "t", ...env } }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });

describe("npm run model:check", () => {
  let gemini: FakeGemini;
  let openai: FakeOpenAiServer;
  const servers: { close(): Promise<void> }[] = [];
  const serve = async <T extends { close(): Promise<void> }>(server: Promise<T>): Promise<T> => {
    const started = await server;
    servers.push(started);
    return started;
  };
  beforeAll(async () => {
    // The Gemini fake answers the tool check's call to check_echo, as a model would.
    gemini = await serve(startFakeGemini({ apiKey: GEMINI_KEY, responder: (body) => (body.tools?.length ? { calls: [{ name: "check_echo", args: { word: "pong" } }] } : { text: "OK" }) }));
    openai = await serve(startFakeOpenAiServer({ flavour: "openai", apiKey: "sk-right-key-0123456789abcdefghij", models: ["qwen3:8b"], responder: echoResponder }));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("prints the server, the model, its window and where it came from, the usage of one call, and that tools work, against the fake Gemini", async () => {
    const ok = await run({ MODEL_PROVIDER: "gemini", GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^Server: +Google's Gemini API$/m);
    expect(ok.stdout).toMatch(/^Window: +1,048,576 tokens, from HA Agent's model table$/m);
    expect(ok.stdout).toMatch(/^Usage: +\d+ in, \d+ out/m);
    expect(ok.stdout).toMatch(/^Tools: +work: check_echo was called with \{"word":"pong"\}$/m);
    expect(ok.stdout).toMatch(/^All is well\.$/m);
  });

  it("says in one line that the key is wrong, naming gemini_api_key and not showing the key", async () => {
    const bad = await run({ MODEL_PROVIDER: "gemini", GEMINI_API_KEY: "AIzaWrongWrongWrongWrongWrongWrong0000", GEMINI_BASE_URL: gemini.url });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("gemini_api_key");
    expect(bad.stderr + bad.stdout).not.toContain("AIzaWrong");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it("works against the fake OpenAI-compatible server too, and names openai_base_url when it is missing", async () => {
    const ok = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: "sk-right-key-0123456789abcdefghij", MODEL: "qwen3:8b" });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^Model: +qwen3:8b/m);
    expect(ok.stdout).toMatch(/^Usage: /m);
    const wrong = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: "sk-wrong-key-0123456789abcdefghij", MODEL: "qwen3:8b" });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim().split("\n")).toHaveLength(1);
    expect(wrong.stderr).toContain("openai_api_key");
    expect(wrong.stderr + wrong.stdout).not.toContain("sk-wrong");
    const missing = await run({ MODEL_PROVIDER: "openai" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("openai_base_url");
  });

  it("Ollama, right: its own API, the num_ctx it gets and why, the window Ollama runs with, tools whole when streamed", async () => {
    const ollama: FakeOllama = await serve(startFakeOllama({ responder: echoResponder }));
    const ok = await run({ MODEL_PROVIDER: "ollama", OLLAMA_URL: ollama.url });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`Server:    Ollama 0.13.5 at ${ollama.url}, through Ollama's own API (/api/chat)`);
    expect(ok.stdout).toMatch(/^Window: +16,384 tokens, from num_ctx 16,384, HA Agent's default \(the model supports qwen3\.context_length 40,960 from \/api\/show/m);
    expect(ok.stdout).toMatch(/^ +Ollama runs the model with 16,384 now \(\/api\/ps\)$/m);
    expect(ok.stdout).toMatch(/^Streaming: +tool calls arrive whole when streamed$/m);
    // Configured the old way, it still works, and says what to set instead.
    const old = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: ollama.v1Url });
    expect(old.status, old.stderr).toBe(0);
    expect(old.stdout).toContain(`Note:      openai_base_url points at Ollama: set model_provider: ollama and ollama_url: ${ollama.url} to say so directly.`);
  });

  it("Ollama, wrong: a window too small for the tools, with the setting that fixes it", async () => {
    const ollama = await serve(startFakeOllama({ responder: echoResponder }));
    const small = await run({ MODEL_PROVIDER: "ollama", OLLAMA_URL: ollama.url, MODEL_CONTEXT_TOKENS: "4096" });
    expect(small.status).toBe(1);
    expect(small.stderr).toMatch(/^- The model's context window, 4,096 tokens, is too small for HA Agent's tools: .* Give it at least 8,192: set model_context_tokens/m);
  });

  it("llama-server without --jinja: tools refused, and what to add to its command line", async () => {
    const llama = await serve(startFakeOpenAiServer({ flavour: "llama-server", jinja: false, responder: echoResponder }));
    const bad = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: llama.url });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^Server: +llama-server b6500-fake at /m);
    expect(bad.stdout).toMatch(/^Window: +16,384 tokens, from llama-server's \/props \(n_ctx of a slot\)$/m);
    expect(bad.stdout).toMatch(/^Tools: +refused by the server \(server_setup\)/m);
    expect(bad.stderr).toContain("Restart llama-server with --jinja added to its command line");
  });

  it("LM Studio streaming tool calls as text: says to set model_stream: false, and is content once it is", async () => {
    const lm = await serve(startFakeOpenAiServer({ flavour: "lmstudio", responder: echoResponder }));
    const broken = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: lm.baseUrl });
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/^Tools: +work only without streaming$/m);
    expect(broken.stdout).toMatch(/^Streaming: +streamed tool calls arrive broken/m);
    expect(broken.stderr).toContain("set model_stream: false (MODEL_STREAM=false)");
    const fixed = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: lm.baseUrl, MODEL_STREAM: "false" });
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/^Note: +Keep model_stream off/m);
  });
});
