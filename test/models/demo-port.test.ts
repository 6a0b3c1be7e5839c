import * as fakes from "@ha-agent/model-fakes";
import type { GeminiReply } from "@ha-agent/model-fakes";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DemoModelUnavailableError, loadFakeGemini, type FakeGeminiPort, type PlannerReply } from "../../src/models/index.js";

// Compile-time: the package is what the demo model declares it needs, and a planned reply is a reply the fake sends.
const port: FakeGeminiPort = fakes;
const asReply = (planned: PlannerReply): GeminiReply => planned;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("the demo model's run-time load of @ha-agent/model-fakes", () => {
  it("finds the package by name and starts its fake Gemini with the given mind", async () => {
    // What the load finds by name is the package itself.
    expect((await loadFakeGemini()).startFakeGemini).toBe(port.startFakeGemini);
    const { startFakeGemini } = await loadFakeGemini();
    const fake = await startFakeGemini({ apiKey: "k", models: ["m"], responder: () => asReply({ text: "hello" }) });
    closers.push(() => fake.close());
    const res = await fetch(`${fake.url}/v1beta/models/m:generateContent`, { method: "POST", headers: { "x-goog-api-key": "k", "content-type": "application/json" }, body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }) });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain("hello");
  });

  it("says what to do when the package is absent, as in the add-on image", async () => {
    const failure = await loadFakeGemini("@ha-agent/no-such-package").catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DemoModelUnavailableError);
    expect((failure as Error).message).toMatch(/only a clone of the HA Agent repository holds.*npm ci && npm start.*configure a real model/);
  });
});

// npm test builds before vitest, so the compiled command exists.
const SERVE_CLI = fileURLToPath(new URL("../../dist/models/demo/serve-cli.js", import.meta.url));

describe("npm run fake:gemini: the demo model served alone", () => {
  it("serves Gemini's API on the port it prints, answering with the demo planner", async () => {
    const child = spawn(process.execPath, [SERVE_CLI, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    closers.push(async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    await vi.waitFor(() => expect(out).toMatch(/^Base URL: (\S+)$/m), { timeout: 10_000 });
    const url = /^Base URL: (\S+)$/m.exec(out)![1]!;
    const body = { contents: [{ role: "user", parts: [{ text: "Which lights are on?" }] }], tools: [{ functionDeclarations: [{ name: "index_search" }] }] };
    const res = await fetch(`${url}/v1beta/models/demo-planner-1:generateContent`, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": "any" }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toMatch(/"functionCall":\{[^}]*"name":"index_search"/);
  });

  it("refuses a bad port with its usage, exit 2", () => {
    const run = spawnSync(process.execPath, [SERVE_CLI, "--port", "http"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--port must be a port number.*\nUsage: npm run fake:gemini/s);
  });
});

