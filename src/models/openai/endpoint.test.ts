import { describe, expect, it } from "vitest";
import { apiRoot, displayUrl, maxTokensField } from "./endpoint.js";
import { scrub } from "./http-errors.js";
import { OpenAiOptionsSchema } from "./options.js";
import { retryAfterMs } from "./retry-after.js";

describe("apiRoot: /v1 is added only when the path has no version segment", () => {
  it.each([
    ["http://homeassistant.local:11434", "http://homeassistant.local:11434/v1"],
    ["http://homeassistant.local:11434/", "http://homeassistant.local:11434/v1"],
    ["http://192.168.1.20:11434/v1", "http://192.168.1.20:11434/v1"],
    ["http://192.168.1.20:11434/v1/", "http://192.168.1.20:11434/v1"],
    ["http://llama:8080", "http://llama:8080/v1"],
    ["https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"],
    ["https://api.groq.com/openai/v1", "https://api.groq.com/openai/v1"],
    ["https://generativelanguage.googleapis.com/v1beta/openai/", "https://generativelanguage.googleapis.com/v1beta/openai"],
    ["http://proxy.lan/llm", "http://proxy.lan/llm/v1"],
  ])("%s → %s", (base, root) => {
    expect(apiRoot(base)).toBe(root);
  });
});

describe("options", () => {
  it("reads an empty key as no key, and refuses URLs that are not http or hold credentials", () => {
    expect(OpenAiOptionsSchema.parse({ baseUrl: "http://ollama:11434/v1", apiKey: "  ", model: "qwen3:8b" })).toEqual({
      baseUrl: "http://ollama:11434/v1",
      apiKey: undefined,
      model: "qwen3:8b",
      stream: true,
    });
    expect(OpenAiOptionsSchema.safeParse({ baseUrl: "ollama:11434", model: "m" }).success).toBe(false);
    const withUser = OpenAiOptionsSchema.safeParse({ baseUrl: "http://me:secret@ollama:11434", model: "m" });
    expect(withUser.error?.issues[0]?.message).toBe("must not hold a user name or password; put the key in openai_api_key");
    expect(OpenAiOptionsSchema.safeParse({ baseUrl: "http://ollama:11434", model: "" }).success).toBe(false);
  });

  it("shows a base URL without credentials or query, and uses max_completion_tokens only on OpenAI itself", () => {
    expect(displayUrl("https://proxy.lan/v1?token=abc")).toBe("https://proxy.lan/v1");
    expect(maxTokensField("https://api.openai.com/v1")).toBe("max_completion_tokens");
    expect(maxTokensField("http://ollama:11434/v1")).toBe("max_tokens");
  });
});

describe("retryAfterMs", () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  it("reads seconds, fractions, HTTP dates and retry-after-ms, preferring the last", () => {
    expect(retryAfterMs(headers({ "retry-after": "20" }), now)).toBe(20_000);
    expect(retryAfterMs(headers({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 12:00:45 GMT" }), now)).toBe(45_000);
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 11:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(headers({ "retry-after": "20", "retry-after-ms": "250" }), now)).toBe(250);
  });
  it("is undefined when absent or unreadable", () => {
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });
});

describe("scrub", () => {
  it("removes the key, masked keys and sk- tokens, and cuts long text to one line", () => {
    expect(scrub("bad key sk-abc123SECRET in\nrequest", "sk-abc123SECRET")).toBe("bad key [key] in request");
    expect(scrub("Incorrect API key provided: sk-pro********wxyz. You can find", undefined)).toBe("Incorrect API key provided: [key] You can find");
    expect(scrub("token sk-live-0123456789abcdef leaked", undefined)).toBe("token [key] leaked");
    expect(scrub("x".repeat(400), undefined)).toHaveLength(300);
  });
});
