import { modelList, runFakeCli } from "./cli.js";
import { DEFAULT_GEMINI_MODELS, geminiEcho, startFakeGemini } from "./gemini/index.js";

/**
 * `npm run gemini` (in this package): the fake Gemini API on a port, until Ctrl+C,
 * echoing what it is told, so a Gemini client (HA Agent's GEMINI_BASE_URL and
 * `npm run model:check`) has something real-shaped to talk to.
 */
runFakeCli({
  what: "fake Gemini API",
  usage: "Usage: npm run gemini -w @ha-agent/model-fakes -- [--port 0] [--host 127.0.0.1] [--key KEY] [--models a,b]",
  help: `Serves /v1beta/models/{model}:generateContent, :streamGenerateContent and :countTokens like the Gemini API.\nDefaults: a random port, any key accepted, models ${DEFAULT_GEMINI_MODELS.join(" and ")}.`,
  options: { key: { type: "string" }, models: { type: "string" } },
  start: async (values, listen) => {
    const models = modelList(values);
    const key = values.key as string | undefined;
    const fake = await startFakeGemini({ ...listen, ...(key ? { apiKey: key } : {}), ...(models?.length ? { models } : {}), responder: geminiEcho });
    return {
      lines: ["Fake Gemini API, echoing what it is told", `Base URL: ${fake.url}`, `API key:  ${key ?? "(any)"}`, `Models:   ${(models?.length ? models : DEFAULT_GEMINI_MODELS).join(", ")}`],
      close: () => fake.close(),
    };
  },
});
