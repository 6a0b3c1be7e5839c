import { describe, expect, it } from "vitest";
import { modelSettingsFrom } from "../models/index.js";
import { loadConfig } from "./index.js";

const noFile = async () => undefined;
const options = (json: object) => async (path: string) => (path === "/data/options.json" ? JSON.stringify(json) : undefined);
const problem = (promise: Promise<unknown>) => promise.then(() => "", (e: unknown) => (e as Error).message);

describe("the options for real model servers", () => {
  it("reads ollama_url, model_temperature, model_stream and keep_alive from the environment", async () => {
    const config = await loadConfig({ env: { MODEL_PROVIDER: "ollama", OLLAMA_URL: "http://192.168.1.20:11434", MODEL_TEMPERATURE: "0.3", MODEL_STREAM: "false", KEEP_ALIVE: "30m" }, readFile: noFile, modelProviders: ["gemini", "openai", "ollama"] });
    expect(config.options).toMatchObject({ model_provider: "ollama", ollama_url: "http://192.168.1.20:11434", model_temperature: 0.3, model_stream: false, keep_alive: "30m" });
    expect(modelSettingsFrom(config)).toMatchObject({ provider: "ollama", ollamaUrl: "http://192.168.1.20:11434", temperature: 0.3, stream: false, keepAlive: "30m" });
  });

  it("streams by default, and leaves the temperature to the model", async () => {
    const config = await loadConfig({ env: {}, readFile: noFile });
    expect(config.options.model_stream).toBe(true);
    expect(config.options.model_temperature).toBeUndefined();
  });

  it("takes keep_alive -1 as a number from options.json, as YAML writes it", async () => {
    const config = await loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: options({ model_provider: "ollama", ollama_url: "http://ollama.lan:11434", keep_alive: -1 }) });
    expect(config.options.keep_alive).toBe("-1");
  });

  it("names the option and what is wrong", async () => {
    expect(await problem(loadConfig({ env: { MODEL_TEMPERATURE: "3" }, readFile: noFile }))).toMatch(/MODEL_TEMPERATURE: expected a number from 0 to 2/);
    expect(await problem(loadConfig({ env: { KEEP_ALIVE: "five minutes" }, readFile: noFile }))).toMatch(/KEEP_ALIVE: expected a duration such as 5m/);
    expect(await problem(loadConfig({ env: { OLLAMA_URL: "ollama:11434" }, readFile: noFile }))).toMatch(/OLLAMA_URL: expected your Ollama server's address/);
  });

  it("demo mode uses a configured Ollama instead of the demo model", async () => {
    const config = await loadConfig({ env: { MODEL_PROVIDER: "ollama", OLLAMA_URL: "http://127.0.0.1:11434" }, readFile: noFile });
    expect(config.mode).toBe("demo");
    expect(modelSettingsFrom(config).provider).toBe("ollama");
  });

  it("reads allowed_models as a list in options.json and comma-separated in the environment; only the configured model by default", async () => {
    const none = await loadConfig({ env: {}, readFile: noFile });
    expect(none.options).toMatchObject({ allowed_models: [], model_choice_for_everyone: false });
    const env = await loadConfig({ env: { ALLOWED_MODELS: "qwen3:14b, gpt-oss:20b", MODEL_CHOICE_FOR_EVERYONE: "true" }, readFile: noFile });
    expect(env.options).toMatchObject({ allowed_models: ["qwen3:14b", "gpt-oss:20b"], model_choice_for_everyone: true });
    expect(modelSettingsFrom(env)).toMatchObject({ allowedModels: ["qwen3:14b", "gpt-oss:20b"], modelChoiceForEveryone: true });
    const addon = await loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: options({ allowed_models: ["hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M"] }) });
    expect(addon.options.allowed_models).toEqual(["hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M"]);
  });

  it("stops on a bad allowed_models or model_choice_for_everyone, naming the option", async () => {
    expect(await problem(loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: options({ allowed_models: { model: "qwen3:14b" } }) }))).toMatch(/allowed_models: /);
    expect(await problem(loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: options({ allowed_models: ["two words"] }) }))).toMatch(/allowed_models: expected model names such as qwen3:8b, without spaces or commas/);
    expect(await problem(loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: options({ allowed_models: [42] }) }))).toMatch(/allowed_models: expected model names/);
    expect(await problem(loadConfig({ env: { ALLOWED_MODELS: Array.from({ length: 51 }, (_, i) => `m${i}`).join(",") }, readFile: noFile }))).toMatch(/ALLOWED_MODELS: at most 50 models/);
    expect(await problem(loadConfig({ env: { MODEL_CHOICE_FOR_EVERYONE: "yes" }, readFile: noFile }))).toMatch(/MODEL_CHOICE_FOR_EVERYONE: expected true or false/);
  });
});
