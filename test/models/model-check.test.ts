import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini } from "../../src/models/fakes/gemini/index.js";
import { echoResponder, startFakeOpenAiServer } from "../../src/models/fakes/openai/index.js";

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
  let openai: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: GEMINI_KEY, replies: [{ text: "OK" }] });
    openai = await startFakeOpenAiServer({ flavour: "openai", apiKey: "sk-right-key-0123456789abcdefghij", models: ["qwen3:8b"], responder: echoResponder });
  });
  afterAll(async () => {
    await gemini?.close();
    await openai?.close();
  });

  it("prints the model's facts and the usage of one call, against the fake Gemini", async () => {
    const ok = await run({ MODEL_PROVIDER: "gemini", GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Provider: +gemini/);
    expect(ok.stdout).toMatch(/Limits: +1,048,576-token window/);
    expect(ok.stdout).toMatch(/Usage: +\d+ in, \d+ out/);
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
    expect(ok.stdout).toMatch(/Provider: +openai/);
    expect(ok.stdout).toMatch(/Usage: /);
    const wrong = await run({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: "sk-wrong-key-0123456789abcdefghij", MODEL: "qwen3:8b" });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim().split("\n")).toHaveLength(1);
    expect(wrong.stderr).toContain("openai_api_key");
    expect(wrong.stderr + wrong.stdout).not.toContain("sk-wrong");
    const missing = await run({ MODEL_PROVIDER: "openai" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("openai_base_url");
  });
});
