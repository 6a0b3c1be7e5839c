import { describe, expect, it } from "vitest";
import { keepAliveValue } from "./options.js";
import { chooseNumCtx, DEFAULT_NUM_CTX, shownModel } from "./window.js";

describe("chooseNumCtx: what the model supports, capped by model_context_tokens or the default", () => {
  const qwen3 = shownModel({ model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40_960 } });

  it("reads <arch>.context_length from /api/show", () => {
    expect(qwen3).toEqual({ contextLength: 40_960, contextKey: "qwen3.context_length" });
  });

  it("asks for the default when the model supports more and no option is set", () => {
    expect(chooseNumCtx({ shown: qwen3, tableWindow: 32_768, option: undefined })).toEqual({ numCtx: DEFAULT_NUM_CTX, source: expect.stringContaining("qwen3.context_length 40,960 from /api/show") });
  });

  it("asks for model_context_tokens, but never more than the model supports", () => {
    expect(chooseNumCtx({ shown: qwen3, tableWindow: 32_768, option: 32_768 }).numCtx).toBe(32_768);
    expect(chooseNumCtx({ shown: qwen3, tableWindow: 32_768, option: 131_072 })).toEqual({ numCtx: 40_960, source: expect.stringContaining("the model's own maximum") });
  });

  it("falls back to the model table when Ollama has not said", () => {
    expect(chooseNumCtx({ shown: undefined, tableWindow: 8_192, option: undefined })).toEqual({ numCtx: 8_192, source: expect.stringContaining("model table") });
  });
});

describe("keepAliveValue", () => {
  it("sends whole seconds as numbers (-1 must be a number for Ollama) and durations as text", () => {
    expect([keepAliveValue("-1"), keepAliveValue("300"), keepAliveValue("5m"), keepAliveValue(undefined)]).toEqual([-1, 300, "5m", undefined]);
  });
});
