import { describe, expect, it } from "vitest";
import { readErrorBody } from "./server-words.js";

describe("readErrorBody: the server's own words, whatever the shape of its error body", () => {
  it.each([
    ["OpenAI, llama-server, vLLM today", '{"error":{"message":"tools param requires --jinja flag","type":"server_error","code":500}}', { message: "tools param requires --jinja flag", type: "server_error", code: 500 }],
    ["OpenAI naming the field", '{"error":{"message":"Unsupported parameter","param":"parallel_tool_calls","code":"unsupported_parameter"}}', { message: "Unsupported parameter", param: "parallel_tool_calls", code: "unsupported_parameter" }],
    ["Ollama's own API", '{"error":"model \'qwen3:8b\' not found"}', { message: "model 'qwen3:8b' not found" }],
    ["older vLLM, at the top level", '{"object":"error","message":"bad","type":"BadRequestError","code":400}', { message: "bad", type: "BadRequestError", code: 400 }],
    ["Google's JSON array", '[{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}]', { message: "API key not valid.", code: 400, status: "INVALID_ARGUMENT" }],
    ["FastAPI", '{"detail":"Not Found"}', { message: "Not Found" }],
    ["a JSON string", '"overloaded"', { message: "overloaded" }],
    ["plain text", "404 page not found\n", { message: "404 page not found" }],
    ["an HTML page", "<html><body>502 Bad Gateway</body></html>", { message: "(an HTML page instead of an API answer)" }],
  ])("%s", (_, body, expected) => {
    expect(readErrorBody(body)).toEqual(expected);
  });

  it("says nothing for an empty body", () => {
    expect(readErrorBody("  ")).toBeUndefined();
  });
});
