import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { modelFacts } from "../../src/models/facts.js";
import { manualClock, silentLogger, systemClock } from "../../src/shared/index.js";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import { ModelChoiceError } from "../../src/models/model-choice-error.js";
import { createModelSource, type ModelSettings, type ModelSource } from "../../src/models/model-source.js";
import { builtInModelProviders } from "../../src/models/providers.js";
import type { ModelProvider } from "../../src/models/types.js";

const open: (FakeOpenAiServer | ModelSource)[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function fake(options: Parameters<typeof startFakeOpenAiServer>[0]): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(options);
  open.push(server);
  return server;
}

function source(settings: Omit<ModelSettings, "provider">, fetchImpl?: typeof fetch): ModelSource {
  const models = createModelSource({ registry: builtInModelProviders(), settings: { provider: "openai", ...settings }, clock: systemClock, logger: silentLogger, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  open.push(models);
  return models;
}

describe("an OpenAI-compatible server without a model name", () => {
  it("Ollama: uses its one model, with the window from model_context_tokens since Ollama does not say", async () => {
    const ollama = await fake({ flavour: "ollama", models: ["qwen3:8b"] });
    const models = source({ openaiBaseUrl: ollama.baseUrl, contextTokens: 8_192 });
    await models.init();
    const client = await models.get();
    expect(client?.model).toBe("qwen3:8b");
    expect(client?.facts.contextWindow).toBe(8_192);
    expect(models.describe()).toMatchObject({ status: "configured", model: "qwen3:8b" });
  });

  it("Ollama without model_context_tokens: the model table's window, not Gemini's 1M", async () => {
    const ollama = await fake({ flavour: "ollama", models: ["qwen3:8b"] });
    const models = source({ openaiBaseUrl: ollama.baseUrl });
    await models.init();
    expect((await models.get())?.facts.contextWindow).toBe(40_960);
  });

  it("llama-server: uses its model and the context size it reports, which model_context_tokens can only lower", async () => {
    const llama = await fake({ flavour: "llama-server", models: ["Qwen3-8B-Q4_K_M.gguf"], contextSize: 16_384 });
    const reported = source({ openaiBaseUrl: llama.baseUrl });
    await reported.init();
    expect((await reported.get())?.facts).toMatchObject({ model: "Qwen3-8B-Q4_K_M.gguf", contextWindow: 16_384 });
    const lowered = source({ openaiBaseUrl: llama.baseUrl, contextTokens: 8_192 });
    await lowered.init();
    expect((await lowered.get())?.facts.contextWindow).toBe(8_192);
    const raised = source({ openaiBaseUrl: llama.baseUrl, contextTokens: 65_536 });
    await raised.init();
    expect((await raised.get())?.facts.contextWindow).toBe(16_384);
  });

  it("refuses to choose among several models, listing them and saying what to set", async () => {
    const ollama = await fake({ flavour: "ollama", models: ["qwen3:8b", "llama3.1:8b", "gpt-oss:20b"] });
    const models = source({ openaiBaseUrl: ollama.baseUrl });
    const refused = await models.init().then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(ModelChoiceError);
    const message = (refused as Error).message;
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain("model (MODEL)");
    expect(message).toContain("set model to one of qwen3:8b, llama3.1:8b, gpt-oss:20b");
  });

  it("refuses when the server serves no models, saying so", async () => {
    const ollama = await fake({ flavour: "ollama", models: [] });
    const refused = await source({ openaiBaseUrl: ollama.baseUrl }).init().then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(ModelChoiceError);
    // Ollama's /v1/models says "data": null then; that is an empty list, and the fix is Ollama's own.
    expect((refused as Error).message).toMatch(/has no models: pull a model first: `ollama pull qwen3:8b`/);
  });

  it("starts without a model when the server cannot be reached, names the option, and asks again at the next use", async () => {
    const ollama = await fake({ flavour: "ollama", models: ["qwen3:8b"] });
    let up = false;
    const flaky: typeof fetch = (input, init) => (up ? fetch(input, init) : Promise.reject(new TypeError("fetch failed")));
    const models = source({ openaiBaseUrl: ollama.baseUrl }, flaky);
    await models.init();
    expect(models.describe().status).toBe("not configured");
    expect(await models.get()).toBeUndefined();
    expect(models.missing()).toMatch(/model \(MODEL\) is not set, and the server at \S+ could not be reached/);
    up = true;
    expect((await models.get())?.model).toBe("qwen3:8b");
    expect(models.describe().status).toBe("configured");
  });

  it("with a model name, never asks the server at start", async () => {
    const ollama = await fake({ flavour: "ollama", models: ["qwen3:8b", "llama3.1:8b"] });
    const models = source({ openaiBaseUrl: ollama.baseUrl, model: "llama3.1:8b" });
    await models.init();
    expect(ollama.log).toHaveLength(0);
    expect((await models.get())?.model).toBe("llama3.1:8b");
  });
});

describe("model providers as registry entries", () => {
  it("takes the default model from the provider's entry, and a provider registered like the built-ins is used the same way", async () => {
    const gemini = createModelSource({ registry: builtInModelProviders(), settings: { provider: "gemini", geminiApiKey: "AIzaKey" }, clock: systemClock, logger: silentLogger });
    open.push(gemini);
    expect(gemini.describe()).toMatchObject({ status: "configured", provider: "gemini", model: "gemini-3.8-flash" });

    const registry = builtInModelProviders();
    const made: string[] = [];
    const echoOptions = z.object({ model: z.string() });
    const echoProvider: ModelProvider<typeof echoOptions> = {
      name: "echo",
      title: "Echo",
      description: "Answers with the question.",
      options: echoOptions,
      selectable: true,
      defaultModel: "echo-1",
      optionsFrom: ({ model }) => ({ options: { model } }),
      create: (options) => {
        made.push(options.model);
        return { provider: "echo", model: options.model, label: "Echo", facts: modelFacts(options.model), generate: () => Promise.reject(new Error("not in this test")), countTokens: () => Promise.reject(new Error("not in this test")), close: async () => {} };
      },
    };
    registry.register(echoProvider);
    expect(registry.selectable().map((p) => p.name)).toEqual(["gemini", "openai", "ollama", "echo"]);
    const echo = createModelSource({ registry, settings: { provider: "echo" }, clock: systemClock, logger: silentLogger });
    open.push(echo);
    expect((await echo.get())?.model).toBe("echo-1");
    expect(made).toEqual(["echo-1"]);

    const unknown = createModelSource({ registry, settings: { provider: "nope" }, clock: systemClock, logger: silentLogger });
    open.push(unknown);
    expect(unknown.missing()).toContain('"nope" is not a model provider; set it to one of gemini, openai, ollama, echo.');
  });
});

describe("the models a caller may name", () => {
  it("refuses a model allowed_models does not list before anything is set up, naming the option", async () => {
    const server = await fake({ flavour: "ollama", models: ["qwen3:8b", "qwen3:14b"] });
    const models = source({ openaiBaseUrl: server.baseUrl, model: "qwen3:8b" });
    await models.get();
    const asked = server.log.length;
    for (let i = 0; i < 20; i++) {
      await expect(models.get(`invented-${i}`)).rejects.toMatchObject({ code: "model_not_allowed", message: expect.stringContaining("allowed_models") });
    }
    expect(server.log.length).toBe(asked);
    expect(models.heldClients()).toBe(1);
    // The configured model, by name or by default, is always allowed.
    expect((await models.get("qwen3:8b"))?.model).toBe("qwen3:8b");
    expect(() => models.check("qwen3:8b", { isAdmin: false })).not.toThrow();
  });

  it("lets administrators choose a listed model, and everyone else only with model_choice_for_everyone", async () => {
    const server = await fake({ flavour: "ollama", models: ["qwen3:8b", "qwen3:14b"] });
    const models = source({ openaiBaseUrl: server.baseUrl, model: "qwen3:8b", allowedModels: ["qwen3:14b"] });
    expect(() => models.check("qwen3:14b", { isAdmin: true })).not.toThrow();
    expect(() => models.check("qwen3:14b", { isAdmin: false })).toThrow(expect.objectContaining({ code: "model_admin_only", message: expect.stringContaining("model_choice_for_everyone") }));
    expect(() => models.check("llama3.1:8b", { isAdmin: true })).toThrow(expect.objectContaining({ code: "model_not_allowed" }));
    expect((await models.get("qwen3:14b"))?.model).toBe("qwen3:14b");
    expect(models.heldClients()).toBe(1);
    const open = source({ openaiBaseUrl: server.baseUrl, model: "qwen3:8b", allowedModels: ["qwen3:14b"], modelChoiceForEveryone: true });
    expect(() => open.check("qwen3:14b", { isAdmin: false })).not.toThrow();
    expect(() => open.check("llama3.1:8b", { isAdmin: false })).toThrow(expect.objectContaining({ code: "model_not_allowed" }));
  });

  it("answers a failed set-up from memory for a minute instead of asking the server again", async () => {
    const clock = manualClock();
    let made = 0;
    const registry = builtInModelProviders();
    const failing = z.object({ model: z.string() });
    registry.register({
      name: "flaky",
      title: "Flaky",
      description: "Fails to set up any model but its default.",
      options: failing,
      selectable: true,
      defaultModel: "ok-1",
      optionsFrom: ({ model }) => ({ options: { model: model ?? "ok-1" } }),
      create: (options) => {
        made++;
        if (options.model !== "ok-1") throw new Error(`${options.model} is not there`);
        return { provider: "flaky", model: options.model, label: "Flaky", facts: modelFacts(options.model), generate: () => Promise.reject(new Error("unused")), countTokens: () => Promise.reject(new Error("unused")), close: async () => {} };
      },
    } satisfies ModelProvider<typeof failing>);
    const models = createModelSource({ registry, settings: { provider: "flaky", allowedModels: ["gone-1"] }, clock, logger: silentLogger });
    open.push(models);
    for (let i = 0; i < 10; i++) await expect(models.get("gone-1")).rejects.toThrow("gone-1 is not there");
    expect(made).toBe(1);
    clock.advance(60_000);
    await expect(models.get("gone-1")).rejects.toThrow("gone-1 is not there");
    expect(made).toBe(2);
  });
});
