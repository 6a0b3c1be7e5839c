import { demoPlan } from "../demo/index.js";
import { modelList, runFakeCli } from "./cli.js";
import { startFakeGemini } from "./gemini/index.js";

/**
 * `npm run fake:gemini`: the fake Gemini API on a port, until Ctrl+C,
 * answering with the demo planner, so GEMINI_BASE_URL and
 * `npm run model:check` have something real-shaped to talk to.
 */
runFakeCli({
  what: "fake Gemini API",
  usage: "Usage: npm run fake:gemini -- [--port 0] [--host 127.0.0.1] [--key KEY] [--models a,b]",
  help: "Serves /v1beta/models/{model}:generateContent, :streamGenerateContent and :countTokens like the Gemini API.\nDefaults: a random port, any key accepted, model gemini-3.8-flash.",
  options: { key: { type: "string" }, models: { type: "string" } },
  start: async (values, listen) => {
    const models = modelList(values);
    const key = values.key as string | undefined;
    const fake = await startFakeGemini({ ...listen, ...(key ? { apiKey: key } : {}), ...(models?.length ? { models } : {}), responder: (body) => demoPlan(body) });
    return {
      lines: ["Fake Gemini API, answering with the demo planner", `Base URL: ${fake.url}`, `API key:  ${key ?? "(any)"}`, `Models:   ${models?.length ? models.join(", ") : "gemini-3.8-flash"}`],
      close: () => fake.close(),
    };
  },
});
