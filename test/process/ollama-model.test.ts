import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama, echoResponder } from "@ha-agent/model-fakes";
import { runProgram, type Program } from "../support/program.js";

/** The whole program against a fake Ollama, configured as people configure it. */
describe("Ollama, as the program starts", () => {
  let dataDir: string;
  let server: FakeOllama | undefined;
  let program: Program | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-ollama-model-"));
  });
  afterEach(async () => {
    if (program && program.child.exitCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
    await server?.close();
    server = undefined;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string>) => (program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", ...env }));

  it("model_provider: ollama without a model uses the one pulled", async () => {
    server = await startFakeOllama({ models: ["qwen3:8b"], responder: echoResponder });
    const p = start({ MODEL_PROVIDER: "ollama", OLLAMA_URL: server.url });
    await p.waitFor(/^MCP endpoint: /m);
    expect(p.stdout()).toMatch(/^Model: +ollama qwen3:8b$/m);
  });

  it("with nothing pulled, refuses to start in one line saying to pull a model first (exit 2)", async () => {
    server = await startFakeOllama({ models: [] });
    const p = start({ MODEL_PROVIDER: "ollama", OLLAMA_URL: server.url });
    const { code } = await p.exited;
    expect(code).toBe(2);
    expect(p.stderr().trim().split("\n")).toHaveLength(1);
    expect(p.stderr()).toContain("has no models: pull a model first: `ollama pull qwen3:8b`");
  });

  it("openai_base_url on Ollama's /v1: keeps working through Ollama's own API, and the log says to switch", async () => {
    server = await startFakeOllama({ responder: echoResponder });
    const p = start({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: server.v1Url, MODEL: "qwen3:8b" });
    await p.waitFor(/Set model_provider: ollama and ollama_url: http:\/\/127\.0\.0\.1:\d+ to say so directly/);
    // The start-up check went to Ollama's own API, with a window.
    await p.waitFor(/model qwen3:8b \(Ollama at .*\) answered/);
    expect(server.log.filter((e) => e.path === "/api/chat").map((e) => (e.body as { options: { num_ctx: number } }).options.num_ctx)).toEqual([16_384]);
  });

  it("says at start when the model's window is too small for the tools", async () => {
    server = await startFakeOllama({ responder: echoResponder });
    const p = start({ MODEL_PROVIDER: "ollama", OLLAMA_URL: server.url, MODEL: "qwen3:8b", MODEL_CONTEXT_TOKENS: "4096" });
    await p.waitFor(/context window, 4,096 tokens, is too small for HA Agent's tools/);
  });
});
