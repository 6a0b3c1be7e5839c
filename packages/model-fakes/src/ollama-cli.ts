import { modelList, runFakeCli, wholeNumber } from "./cli.js";
import { startFakeOllama } from "./ollama/index.js";
import { echoResponder } from "./openai/index.js";

/**
 * `npm run ollama` (in this package; `npm run fake:ollama` from HA Agent's root): a fake Ollama on a port, until Ctrl+C, with its own
 * API and /v1, answering every chat by echoing the user (and calling a tool
 * when asked to in so many words, as `npm run model:check` asks), so
 * OLLAMA_URL and model:check have something real-shaped to talk to.
 */
runFakeCli({
  what: "fake Ollama",
  usage: `Usage: npm run ollama -w @ha-agent/model-fakes -- [--port 0] [--host 127.0.0.1] [--models qwen3:8b,llama3.1:8b] [--context 4096]

  --models a,b   the models pulled (default qwen3:8b; an empty list is a fresh install)
  --context N    OLLAMA_CONTEXT_LENGTH: the window of a request that sets no num_ctx, and of /v1 (default 4096)`,
  options: { models: { type: "string" }, context: { type: "string" } },
  start: async (values, listen) => {
    const context = wholeNumber(values, "context", "of tokens");
    const models = modelList(values);
    const fake = await startFakeOllama({ ...listen, responder: echoResponder, ...(models ? { models } : {}), ...(context !== undefined ? { defaultContext: context } : {}) });
    return {
      lines: [
        "Fake Ollama, answering by echo",
        `Ollama URL: ${fake.url}   (model_provider: ollama, ollama_url)`,
        `/v1:        ${fake.v1Url}   (model_provider: openai, openai_base_url)`,
        `Models:     ${fake.models.join(", ") || "(none pulled)"}`,
      ],
      close: () => fake.close(),
    };
  },
});
