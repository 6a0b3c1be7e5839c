import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger, manualClock } from "../../../src/shared/index.js";
import { ModelError } from "../../../src/models/errors.js";
import { startFakeOpenAiServer, type FakeOpenAiOptions, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import type { GenerateResult } from "../../../src/models/types.js";
import { ask, clientFor, recordingSleep } from "../../support/models/openai-harness.js";

const KEY = "sk-proj-SECRET0123456789abcdefWXYZ";
const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: FakeOpenAiOptions = {}): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer({ apiKey: KEY, ...options });
  servers.push(server);
  return server;
}

async function failure(promise: Promise<GenerateResult>): Promise<ModelError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ModelError);
  return outcome as ModelError;
}

describe("retries", () => {
  it("429 waits as long as Retry-After says (seconds), then succeeds", async () => {
    const server = await fake();
    server.enqueue({ fault: "rate_limit", retryAfter: 7 }, { text: "ok" });
    const { sleep, waits } = recordingSleep();
    const result = await clientFor(server, {}, { sleep }).generate(ask("?"));
    expect(result.text).toBe("ok");
    expect(waits).toEqual([7000]);
    expect(server.chatRequests().map((r) => r.status)).toEqual([429, 200]);
  });

  it("429 honours Retry-After as an HTTP date, and retry-after-ms before it", async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const server = await fake();
    server.enqueue(
      { fault: "rate_limit", retryAfter: new Date(clock.now() + 30_000).toUTCString() },
      { fault: "rate_limit", retryAfter: 9, retryAfterMs: 1250 },
      { text: "ok" },
    );
    const { sleep, waits } = recordingSleep();
    await clientFor(server, {}, { sleep, clock }).generate(ask("?"));
    expect(waits).toEqual([30_000, 1250]);
  });

  it("429 that never lifts ends as rate_limited with the wait the server asked for", async () => {
    const server = await fake();
    server.enqueue(...Array.from({ length: 4 }, () => ({ fault: "rate_limit" as const, retryAfter: 2 })));
    const err = await failure(clientFor(server).generate(ask("?")));
    expect([err.code, err.status, err.retryAfterMs]).toEqual(["rate_limited", 429, 2000]);
    expect(server.chatRequests()).toHaveLength(4);
  });

  it("500 and 503 are retried with backoff, then the answer comes", async () => {
    const server = await fake({ flavour: "llama-server" });
    server.enqueue({ fault: "server_error" }, { fault: "unavailable" }, { text: "recovered" });
    const { sleep, waits } = recordingSleep();
    const result = await clientFor(server, {}, { sleep, random: () => 0.5 }).generate(ask("?"));
    expect(result.text).toBe("recovered");
    // Full jitter with random 0.5: three quarters of 1 s, then of 2 s.
    expect(waits).toEqual([750, 1500]);
    expect(server.chatRequests().map((r) => r.status)).toEqual([500, 503, 200]);
  });

  for (const [name, setup, code] of [
    ["400", (s: FakeOpenAiServer) => s.enqueue({ fault: "bad_request", message: "'temperature' must be at most 2." }), "bad_request"],
    ["401", () => undefined, "auth"],
    ["404", () => undefined, "model_not_found"],
    ["429 insufficient_quota", (s: FakeOpenAiServer) => s.enqueue({ fault: "quota" }), "auth"],
  ] as const) {
    it(`${name} is not retried`, async () => {
      const server = await fake();
      setup(server);
      server.enqueue({ text: "never" });
      const { sleep, waits } = recordingSleep();
      const options = name === "401" ? { apiKey: "sk-wrong-key-000000000000" } : name === "404" ? { model: "gpt-9" } : {};
      const err = await failure(clientFor(server, options, { sleep }).generate(ask("?")));
      expect(err.code).toBe(code);
      expect(server.chatRequests()).toHaveLength(1);
      expect(waits).toEqual([]);
    });
  }
});

describe("errors that say what to fix", () => {
  it("a wrong key names openai_api_key and shows neither the key nor the server's masked echo of it", async () => {
    const server = await fake();
    const wrong = "sk-wrong-abcdefghijklmnop1234";
    const err = await failure(clientFor(server, { apiKey: wrong }).generate(ask("?")));
    expect(err.code).toBe("auth");
    expect(err.message).toContain("openai_api_key");
    expect(err.message).not.toContain("1234");
    expect(err.message).not.toContain("sk-");
    const missing = await failure(clientFor(server, { apiKey: "" }).generate(ask("?")));
    expect(missing.message).toContain("It needs a key: set openai_api_key.");
  });

  it("an unknown model on Ollama lists the models the server has", async () => {
    const server = await fake({ flavour: "ollama" });
    const err = await failure(clientFor(server, { model: "qwen9:1b" }).generate(ask("?")));
    expect(err.code).toBe("model_not_found");
    expect(err.message).toBe(
      `The OpenAI-compatible server at ${server.baseUrl} has no model "qwen9:1b". It has "qwen3:8b", "llama3.1:8b", "gpt-oss:20b". Set model to one of them.`,
    );
    expect(server.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(["POST /v1/chat/completions 404", "GET /v1/models 200"]);
  });

  it("an unknown model on OpenAI is found out through its authenticated model list", async () => {
    const server = await fake({ flavour: "openai", models: ["gpt-4o-mini"] });
    const err = await failure(clientFor(server, { model: "gpt-9" }).generate(ask("?")));
    expect(err.message).toContain('has no model "gpt-9". It has "gpt-4o-mini".');
    expect(server.log[1]?.authorized).toBe(true);
  });

  it("a base URL with no API behind it says to check openai_base_url", async () => {
    const server = await fake({ flavour: "openai" });
    const err = await failure(clientFor(server, { baseUrl: `${server.url}/api` }).generate(ask("?")));
    expect(err.code).toBe("bad_request");
    expect(err.message).toContain("Check openai_base_url");
  });

  it("a server that is not running is unavailable, retried, and named", async () => {
    const server = await fake();
    const client = clientFor(server);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const err = await failure(client.generate(ask("?")));
    expect(err.code).toBe("unavailable");
    expect(err.message).toBe(`Cannot reach the OpenAI-compatible server at ${server.baseUrl} (ECONNREFUSED). Check openai_base_url and that the server is running.`);
  });

  it("no user-visible message or log line holds the key or a stack", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "trace", destination: new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }) });
    const server = await fake({ flavour: "openai" });
    server.enqueue({ fault: "server_error" }, { fault: "mid_stream_error", text: "Half an" });
    const errors: ModelError[] = [];
    errors.push(await failure(clientFor(server, {}, { logger }).generate(ask("?"))));
    errors.push(await failure(clientFor(server, { apiKey: `${KEY}x` }, { logger }).generate(ask("?"))));
    errors.push(await failure(clientFor(server, { model: "nope" }, { logger }).generate(ask("?"))));
    server.enqueue({ fault: "bad_request", message: `Your key ${KEY} cannot use tools.` });
    errors.push(await failure(clientFor(server, {}, { logger }).generate(ask("?"))));
    expect(errors.map((e) => e.code)).toEqual(["unavailable", "auth", "model_not_found", "bad_request"]);
    expect(errors[3]?.message).toContain("Your key [key] cannot use tools.");
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...errors.map((e) => e.message), ...errors.map((e) => JSON.stringify(e)), ...lines]) {
      expect(text).not.toContain(KEY.slice(8));
      expect(text).not.toMatch(/\n\s+at /);
      expect(text).not.toMatch(/\*{3}/);
    }
  });
});

describe("failures in the middle of a stream", () => {
  it("an error event after output is unavailable and not retried", async () => {
    const server = await fake({ flavour: "llama-server" });
    server.enqueue({ fault: "mid_stream_error", text: "The kitchen light is" }, { text: "never" });
    const partials: string[] = [];
    const err = await failure(clientFor(server).generate(ask("?"), { onPartial: (p) => partials.push(p.text ?? "") }));
    expect(err.code).toBe("unavailable");
    expect(err.message).toContain("failed while answering: Context size has been exceeded.");
    expect(partials.join("")).toBe("The kitchen light is");
    expect(server.chatRequests()).toHaveLength(1);
    expect(server.pending()).toBe(1);
  });

  it("an error event before any output is retried", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ fault: "mid_stream_error" }, { text: "second try" });
    expect((await clientFor(server).generate(ask("?"))).text).toBe("second try");
    expect(server.chatRequests()).toHaveLength(2);
  });

  it("a dropped connection is unavailable and not retried once output came", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ fault: "drop", text: "Partial words here" }, { text: "never" });
    const err = await failure(clientFor(server).generate(ask("?")));
    expect(err.code).toBe("unavailable");
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("without streaming, the same server failure is a 500 and retried", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ fault: "mid_stream_error" }, { text: "ok" });
    expect((await clientFor(server, { stream: false }).generate(ask("?"))).text).toBe("ok");
    expect(server.chatRequests().map((r) => r.status)).toEqual([500, 200]);
  });
});

describe("abort", () => {
  it("aborting mid-stream rejects at once as aborted, and the fake sees the client go", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ text: "one two three four five six seven eight nine ten", chunkDelayMs: 10_000 }, { text: "never" });
    const controller = new AbortController();
    const seen: string[] = [];
    const err = await failure(
      clientFor(server).generate(ask("?"), {
        signal: controller.signal,
        onPartial: (p) => {
          seen.push(p.text ?? "");
          controller.abort();
        },
      }),
    );
    expect(err.code).toBe("aborted");
    expect(seen).toEqual(["one"]);
    await vi.waitFor(() => expect(server.chatRequests()[0]?.disconnected).toBe(true));
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("aborting while a slow server has not answered yet also disconnects", async () => {
    const server = await fake({ flavour: "ollama" });
    server.enqueue({ text: "late", delayMs: 10_000 });
    const controller = new AbortController();
    const pending = clientFor(server).generate(ask("?"), { signal: controller.signal });
    await vi.waitFor(() => expect(server.chatRequests()).toHaveLength(1));
    controller.abort();
    expect((await failure(pending)).code).toBe("aborted");
    await vi.waitFor(() => expect(server.chatRequests()[0]?.disconnected).toBe(true));
  });

  it("an abort during a retry wait stops the retries", async () => {
    const server = await fake({ flavour: "openai" });
    server.enqueue({ fault: "unavailable" }, { text: "never" });
    const controller = new AbortController();
    const sleep = (_ms: number, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        controller.abort();
        if (signal?.aborted) reject(new Error("aborted"));
      });
    const err = await failure(clientFor(server, {}, { sleep }).generate(ask("?"), { signal: controller.signal }));
    expect(err.code).toBe("aborted");
    expect(server.chatRequests()).toHaveLength(1);
  });
});
