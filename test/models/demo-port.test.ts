import * as fakes from "@ha-agent/model-fakes";
import type { GeminiReply } from "@ha-agent/model-fakes";
import { afterEach, describe, expect, it } from "vitest";
import { DemoModelUnavailableError, loadFakeGemini, type FakeGeminiPort, type PlannerReply } from "../../src/models/index.js";

// Compile-time: the package is what the demo model declares it needs, and a planned reply is a reply the fake sends.
const port: FakeGeminiPort = fakes;
const reply: GeminiReply = {} as PlannerReply;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe("the demo model's run-time load of @ha-agent/model-fakes", () => {
  it("finds the package by name and starts its fake Gemini with the given mind", async () => {
    expect(port && reply).toBeDefined();
    const { startFakeGemini } = await loadFakeGemini();
    const fake = await startFakeGemini({ apiKey: "k", models: ["m"], responder: () => ({ text: "hello" }) });
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
