import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import { callTool } from "../support/mcp.js";
import { runProgram, type Program } from "../support/program.js";
import { connectClient } from "../support/stack.js";

/** The model part of /healthz. */
async function modelHealth(mcpUrl: string): Promise<Record<string, unknown>> {
  const body = (await (await fetch(mcpUrl.replace(/\/mcp$/, "/healthz"))).json()) as { components: { model: { details: Record<string, unknown> } } };
  return body.components.model.details;
}

describe("MODEL_PROVIDER=openai without MODEL", () => {
  let dataDir: string;
  let server: FakeOpenAiServer | undefined;
  let program: Program | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-openai-model-"));
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

  const start = (baseUrl: string) => (program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", MODEL_PROVIDER: "openai", OPENAI_BASE_URL: baseUrl }));

  it("uses the one model the server serves, not a Gemini model", async () => {
    server = await startFakeOpenAiServer({ flavour: "ollama", models: ["qwen3:8b"] });
    const p = start(server.baseUrl);
    const [, mcpUrl] = (await p.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    expect(p.stdout()).toMatch(/^Model: +openai qwen3:8b$/m);
    expect(await modelHealth(mcpUrl as string)).toMatchObject({ status: "configured", provider: "openai", model: "qwen3:8b" });
  });

  it("refuses to start in one line, exit 2, when the server serves several models, listing them", async () => {
    server = await startFakeOpenAiServer({ flavour: "llama-server", models: ["a.gguf", "b.gguf"] });
    const p = start(server.baseUrl);
    const { code } = await p.exited;
    expect(code).toBe(2);
    const lines = p.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/model \(MODEL\) is not set .* serves 2 models: set model to one of a\.gguf, b\.gguf\.$/);
    expect(p.stdout()).not.toContain("MCP endpoint");
  });

  it('reads Ollama\'s "data": null (nothing pulled) as no models, and says to pull one, not that the answer is malformed', async () => {
    server = await startFakeOpenAiServer({ flavour: "ollama", models: [] });
    const p = start(server.baseUrl);
    const { code } = await p.exited;
    expect(code).toBe(2);
    expect(p.stderr()).toContain("has no models: pull a model first: `ollama pull qwen3:8b`");
  });

  it("starts without a model when the server cannot be reached: /healthz says not configured, the agent tools name the option", async () => {
    const p = start("http://127.0.0.1:9/v1");
    const [, mcpUrl] = (await p.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    const [, token] = (await p.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray;
    expect(p.stdout()).toMatch(/^Model: +not configured$/m);
    expect(await modelHealth(mcpUrl as string)).toMatchObject({ status: "not configured", provider: "openai" });
    await p.waitFor(/HA Agent is ready/);
    const client = await connectClient(mcpUrl as string, token as string);
    try {
      const asked = await callTool(client, "ha_agent_ask", { message: "Which lights are on?" });
      expect(asked.isError).toBe(true);
      expect(asked.text).toMatch(/model \(MODEL\) is not set, and the server at http:\/\/127\.0\.0\.1:9\/v1 could not be reached/);
    } finally {
      await client.close();
    }
  });
});
