import { describe, expect, it } from "vitest";
import { adaptationFor } from "./adapt.js";

describe("adaptationFor: the change that makes a refused request acceptable", () => {
  it("drops parallel_tool_calls for OpenAI's o-series and Google's endpoint", () => {
    expect(adaptationFor(400, { message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", param: "parallel_tool_calls" }, { maxTokens: 100 })).toEqual({ kind: "drop_parallel_tool_calls" });
    expect(adaptationFor(400, { message: "Parallel tool calls are not supported." }, { maxTokens: 100 })).toEqual({ kind: "drop_parallel_tool_calls" });
  });

  it("renames max_tokens and drops a temperature reasoning models refuse", () => {
    expect(adaptationFor(400, { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", param: "max_tokens" }, { maxTokens: 100 })).toEqual({ kind: "max_completion_tokens" });
    expect(adaptationFor(400, { message: "Unsupported value: 'temperature' does not support 0.2 with this model.", param: "temperature" }, { maxTokens: 100 })).toEqual({ kind: "drop_temperature" });
  });

  it("asks for what is left when vLLM states the window and the prompt", () => {
    const said = "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 8192 tokens and your request has 3000 input tokens (8192 > 8192 - 3000).";
    expect(adaptationFor(400, { message: said }, { maxTokens: 8192 })).toEqual({ kind: "fit_output", maxTokens: 5191 });
    // Nothing useful is left, or nothing was asked: no change helps.
    expect(adaptationFor(400, { message: "This model's maximum context length is 4096 tokens. However, your request has 4090 input tokens." }, { maxTokens: 100 })).toBeUndefined();
  });

  it("leaves other refusals alone, and 5xx always", () => {
    expect(adaptationFor(400, { message: "Invalid request." }, { maxTokens: 100 })).toBeUndefined();
    expect(adaptationFor(500, { message: "Unsupported parameter: 'parallel_tool_calls'", param: "parallel_tool_calls" }, { maxTokens: 100 })).toBeUndefined();
  });
});
