import { describe, expect, it } from "vitest";
import { startFakeGemini } from "./gemini/index.js";
import { startFakeOllama } from "./ollama/index.js";
import { echoResponder, startFakeOpenAiServer } from "./openai/index.js";

describe("the fake model servers on a port that is taken", () => {
  it("reject with EADDRINUSE, which their command lines turn into a sentence, instead of crashing", async () => {
    const first = await startFakeGemini({});
    const port = Number(new URL(first.url).port);
    try {
      await expect(startFakeGemini({ port })).rejects.toMatchObject({ code: "EADDRINUSE" });
      await expect(startFakeOllama({ port, responder: echoResponder })).rejects.toMatchObject({ code: "EADDRINUSE" });
      await expect(startFakeOpenAiServer({ port, responder: echoResponder })).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await first.close();
    }
  });
});
