import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./index.js";

const noFile = async () => undefined;
const files = (content: string) => async (path: string) => (path === "/data/options.json" ? content : undefined);

describe("loadConfig", () => {
  it("chooses demo mode when neither SUPERVISOR_TOKEN nor HA_URL is set", async () => {
    const config = await loadConfig({ env: {}, readFile: noFile });
    expect(config.mode).toBe("demo");
    expect(config.ha).toBeUndefined();
    expect(config.mcpPort).toBe(8808);
    expect(config.statusPort).toBe(8099);
    expect(config.dataDir).toBe("./data");
    expect(config.options.tool_name_separator).toBe("_");
    expect(config.options.session_idle_days).toBe(7);
  });

  it("lets the demo's simulated home be acted in, asking first, unless ALLOW_ACTUATION says otherwise; real homes stay read-only", async () => {
    const demo = await loadConfig({ env: {}, readFile: noFile });
    expect([demo.options.allow_actuation, demo.sessionApproval]).toEqual([true, "ask"]);
    expect((await loadConfig({ env: { ALLOW_ACTUATION: "false" }, readFile: noFile })).options.allow_actuation).toBe(false);
    const standalone = await loadConfig({ env: { HA_URL: "http://ha.lan:8123", HA_TOKEN: "t".repeat(40) }, readFile: noFile });
    expect([standalone.options.allow_actuation, standalone.sessionApproval]).toEqual([false, "refuse"]);
    const addon = await loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: files("{}") });
    expect([addon.options.allow_actuation, addon.sessionApproval]).toEqual([false, "refuse"]);
  });

  it("leaves the model unset when not given: the provider's registry entry knows its default", async () => {
    expect((await loadConfig({ env: {}, readFile: noFile })).options.model).toBeUndefined();
    expect((await loadConfig({ env: { MODEL_PROVIDER: "openai", MODEL: "qwen3:8b" }, readFile: noFile })).options.model).toBe("qwen3:8b");
    const addon = await loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: files('{"model_provider":"openai","openai_base_url":"http://llm.local:11434/v1"}') });
    expect(addon.options.model).toBeUndefined();
  });

  it("takes model_provider from the providers it is given, not from a list of its own", async () => {
    const providers = ["gemini", "openai", "mistral"];
    expect((await loadConfig({ env: { MODEL_PROVIDER: "mistral" }, readFile: noFile, modelProviders: providers })).options.model_provider).toBe("mistral");
    const refused = await loadConfig({ env: { MODEL_PROVIDER: "claude" }, readFile: noFile, modelProviders: providers }).catch((e: unknown) => e);
    expect((refused as Error).message).toContain('MODEL_PROVIDER: is "claude", which is not a model provider: expected one of gemini, openai, mistral.');
    const addon = await loadConfig({ env: { SUPERVISOR_TOKEN: "s" }, readFile: files('{"model_provider":"demo"}'), modelProviders: providers }).catch((e: unknown) => e);
    expect((addon as Error).message).toContain('model_provider: is "demo"');
  });

  it("reads model_context_tokens as a whole number within bounds", async () => {
    expect((await loadConfig({ env: { MODEL_CONTEXT_TOKENS: "8192" }, readFile: noFile })).options.model_context_tokens).toBe(8_192);
    expect((await loadConfig({ env: {}, readFile: noFile })).options.model_context_tokens).toBeUndefined();
    const small = await loadConfig({ env: { MODEL_CONTEXT_TOKENS: "512" }, readFile: noFile }).catch((e: unknown) => e);
    expect((small as Error).message).toMatch(/MODEL_CONTEXT_TOKENS: expected a whole number from 2048 to 10000000/);
  });

  it("uses DEMO_TOKEN as the demo token when given", async () => {
    const config = await loadConfig({ env: { DEMO_TOKEN: "demo-secret" }, readFile: noFile });
    expect(config.demoToken).toBe("demo-secret");
  });

  it("refuses HA_TOKEN without HA_URL instead of printing a possibly real token in a demo banner", async () => {
    const err = await loadConfig({ env: { HA_TOKEN: "eyJ.real.token" }, readFile: noFile }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/HA_TOKEN[\s\S]*HA_URL/);
    expect((err as Error).message).not.toContain("eyJ.real.token");
  });

  it("accepts Home Assistant's address in any form people paste it", async () => {
    for (const url of ["http://ha.local:8123", "ws://ha.local:8123", "ws://ha.local:8123/api/websocket", "http://ha.local:8123/api/", "http://ha.local:8123/"]) {
      const config = await loadConfig({ env: { HA_URL: url, HA_TOKEN: "t" }, readFile: noFile });
      expect(config.ha, url).toEqual({ wsUrl: "ws://ha.local:8123/api/websocket", apiUrl: "http://ha.local:8123/api", token: "t" });
    }
    const secure = await loadConfig({ env: { HA_URL: "wss://ha.example/api/websocket", HA_TOKEN: "t" }, readFile: noFile });
    expect(secure.ha).toMatchObject({ wsUrl: "wss://ha.example/api/websocket", apiUrl: "https://ha.example/api" });
    const bad = await loadConfig({ env: { HA_URL: "ftp://ha.local", HA_TOKEN: "t" }, readFile: noFile }).catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/HA_URL.*http, https, ws or wss/);
  });

  it("derives WebSocket and REST endpoints from HA_URL in standalone mode", async () => {
    const config = await loadConfig({ env: { HA_URL: "https://ha.example:8123/", HA_TOKEN: "t", DATA_DIR: "/srv/agent" }, readFile: noFile });
    expect(config.mode).toBe("standalone");
    expect(config.ha).toEqual({ wsUrl: "wss://ha.example:8123/api/websocket", apiUrl: "https://ha.example:8123/api", token: "t" });
    expect(config.coreApiUrl).toBe("https://ha.example:8123/api");
    expect(config.dataDir).toBe("/srv/agent");
  });

  it("reads personas from /config/personas in the add-on, and from PERSONAS_DIR alone elsewhere", async () => {
    const addon = await loadConfig({ env: { SUPERVISOR_TOKEN: "sv" }, readFile: files("{}") });
    expect(addon.personasDir).toBe("/config/personas");
    const standalone = await loadConfig({ env: { HA_URL: "http://ha.local:8123", HA_TOKEN: "t" }, readFile: noFile });
    expect(standalone.personasDir).toBeUndefined();
    const demo = await loadConfig({ env: { PERSONAS_DIR: "/srv/personas" }, readFile: noFile });
    expect(demo.personasDir).toBe("/srv/personas");
  });

  it("reads add-on options from /data/options.json and talks to HA through the Supervisor", async () => {
    const config = await loadConfig({
      env: { SUPERVISOR_TOKEN: "sv" },
      readFile: files(JSON.stringify({ log_level: "debug", tool_name_separator: ".", session_idle_days: 3 })),
    });
    expect(config.mode).toBe("addon");
    expect(config.ha).toEqual({ wsUrl: "ws://supervisor/core/websocket", apiUrl: "http://supervisor/core/api", token: "sv" });
    expect(config.coreApiUrl).toBe("http://homeassistant:8123/api");
    expect(config.supervisorApiUrl).toBe("http://supervisor/core/api");
    expect(config.statusAllowedAddresses).toEqual(["172.30.32.2"]);
    expect(config.options).toMatchObject({ log_level: "debug", tool_name_separator: ".", session_idle_days: 3 });
  });

  it("reaches the Supervisor at SUPERVISOR_URL and reads options.json from DATA_DIR in add-on mode", async () => {
    const read: string[] = [];
    const config = await loadConfig({
      env: { SUPERVISOR_TOKEN: "sv", SUPERVISOR_URL: "http://127.0.0.1:4567/", DATA_DIR: "/tmp/agent-data" },
      readFile: async (path) => (read.push(path), JSON.stringify({ announce_to_home_assistant: false })),
    });
    expect(read).toEqual(["/tmp/agent-data/options.json"]);
    expect(config.ha).toEqual({ wsUrl: "ws://127.0.0.1:4567/core/websocket", apiUrl: "http://127.0.0.1:4567/core/api", token: "sv" });
    expect(config.supervisorApiUrl).toBe("http://127.0.0.1:4567/core/api");
    expect(config.supervisor).toEqual({ url: "http://127.0.0.1:4567", token: "sv" });
    expect(config.options.announce_to_home_assistant).toBe(false);
    const fixed = await loadConfig({ env: { SUPERVISOR_TOKEN: "sv" }, readFile: files("{}") });
    expect(fixed.supervisor).toEqual({ url: "http://supervisor", token: "sv" });
    expect(fixed.options.announce_to_home_assistant).toBe(true);
  });

  it("names every invalid option and what it expects, without leaking secrets", async () => {
    const error = await loadConfig({
      env: { HA_URL: "http://ha:8123", HA_TOKEN: "t", MCP_PORT: "eighty", LOG_LEVEL: "loud", SESSION_IDLE_DAYS: "0", GEMINI_API_KEY: "" },
      readFile: noFile,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain("MCP_PORT");
    expect(message).toContain('"eighty"');
    expect(message).toContain("LOG_LEVEL");
    expect(message).toContain("SESSION_IDLE_DAYS");
    expect((error as ConfigError).problems).toHaveLength(3);
  });

  it("requires HA_TOKEN next to HA_URL and says where to get one", async () => {
    const error = (await loadConfig({ env: { HA_URL: "http://ha:8123" }, readFile: noFile }).catch((e: unknown) => e)) as ConfigError;
    expect(error.problems[0]?.setting).toBe("HA_TOKEN");
    expect(error.message).toMatch(/long-lived access token/);
  });

  it("rejects an options file that is not a JSON object", async () => {
    const error = await loadConfig({ env: { SUPERVISOR_TOKEN: "sv" }, readFile: files("[1,2") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("/data/options.json");
  });

  it("never echoes a secret option's value in an error", async () => {
    const error = (await loadConfig({ env: { SUPERVISOR_TOKEN: "sv" }, readFile: files(JSON.stringify({ gemini_api_key: 42 })) }).catch((e: unknown) => e)) as ConfigError;
    expect(error.message).toContain("gemini_api_key");
    expect(error.message).not.toContain("42");
  });
});
