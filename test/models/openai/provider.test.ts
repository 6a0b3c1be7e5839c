import { afterEach, describe, expect, it } from "vitest";
import { silentLogger, systemClock } from "../../../src/shared/index.js";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import { ModelProviderRegistry } from "../../../src/models/registry.js";
import { openaiProvider } from "../../../src/models/openai/index.js";

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("openaiProvider in the registry", () => {
  it("creates a client from validated options, with the model's facts and a label", async () => {
    server = await startFakeOpenAiServer({ flavour: "ollama" });
    server.enqueue({ text: "Hello." });
    const registry = new ModelProviderRegistry();
    registry.register(openaiProvider);
    const client = await registry.create("openai", { baseUrl: server.url, apiKey: "", model: "qwen3:8b", contextWindow: 8192 }, { clock: systemClock, logger: silentLogger });
    expect([client.provider, client.model]).toEqual(["openai", "qwen3:8b"]);
    expect(client.facts).toEqual({ model: "qwen3:8b", contextWindow: 8192, maxOutputTokens: 8192, known: true, windowSource: "model_context_tokens" });
    // Only Ollama's /v1 answers here (as behind a proxy): the client knows it is Ollama, and says so.
    expect(client.label).toBe(`qwen3:8b (Ollama at ${server.url})`);
    const result = await client.generate({ system: "", conversation: [{ type: "user", text: "Hi" }] });
    expect(result.text).toBe("Hello.");
    expect(await client.countTokens({ system: "abcd", conversation: [{ type: "user", text: "efgh" }] })).toEqual({ tokens: 2, estimated: true });
    await client.close();
  });

  it("refuses options that are not valid, naming the field", async () => {
    const registry = new ModelProviderRegistry();
    registry.register(openaiProvider);
    await expect(registry.create("openai", { baseUrl: "localhost:11434", model: "m" }, { clock: systemClock, logger: silentLogger })).rejects.toThrow(
      "The openai model provider's settings are not valid: baseUrl: must be an http:// or https:// URL, such as http://192.168.1.20:11434/v1.",
    );
  });
});
