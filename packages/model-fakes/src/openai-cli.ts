import { runFakeCli, modelList, UsageError, wholeNumber } from "./cli.js";
import { echoResponder, FAKE_FLAVOURS, startFakeOpenAiServer, type FakeFlavour } from "./openai/index.js";

/**
 * `npm run openai` (in this package; `npm run fake:openai` from HA Agent's root): a fake OpenAI-compatible server on a port, until
 * SIGINT or SIGTERM. It answers every chat request by echoing the user, so
 * `npm run model:check` and hand-made curl calls have something to talk to.
 */
runFakeCli({
  what: "fake OpenAI-compatible server",
  usage: `Usage: npm run openai -w @ha-agent/model-fakes -- [--flavour openai|ollama|llama-server|vllm|lmstudio|gemini-openai] [--port 0] [--host 127.0.0.1] [--key KEY] [--models a,b]
  [--context N] [--no-jinja] [--auto-tool-choice] [--template mistral]

  --context N          llama-server's n_ctx (/props), vLLM's max_model_len, LM Studio's loaded context (default 16384)
  --no-jinja           llama-server started without --jinja: tools are refused (HTTP 500)
  --auto-tool-choice   vLLM started with --enable-auto-tool-choice --tool-call-parser (without it, tools are refused)
  --template mistral   a Mistral-family chat template: roles must alternate`,
  options: {
    flavour: { type: "string" },
    key: { type: "string" },
    models: { type: "string" },
    context: { type: "string" },
    "no-jinja": { type: "boolean" },
    "auto-tool-choice": { type: "boolean" },
    template: { type: "string" },
  },
  start: async (values, listen) => {
    const flavour = (values.flavour as string | undefined) ?? "openai";
    if (!FAKE_FLAVOURS.includes(flavour as FakeFlavour)) throw new UsageError(`--flavour must be one of ${FAKE_FLAVOURS.join(", ")}, got "${flavour}"`);
    const context = wholeNumber(values, "context", "of tokens");
    const template = values.template as string | undefined;
    if (template !== undefined && template !== "mistral") throw new UsageError(`--template must be mistral, got "${template}"`);
    const models = modelList(values);
    const fake = await startFakeOpenAiServer({
      flavour: flavour as FakeFlavour,
      ...listen,
      apiKey: values.key as string | undefined,
      models: models?.length ? models : undefined,
      responder: echoResponder,
      ...(context !== undefined ? { contextSize: context } : {}),
      ...(values["no-jinja"] ? { jinja: false } : {}),
      ...(values["auto-tool-choice"] ? { autoToolChoice: true } : {}),
      ...(template === "mistral" ? { chatTemplate: "mistral" as const } : {}),
    });
    return {
      lines: [`Fake OpenAI-compatible server (${fake.flavour} flavour), answering by echo`, `Base URL: ${fake.baseUrl}`, `API key:  ${fake.apiKey ?? "(none needed)"}`, `Models:   ${fake.models.join(", ")}`],
      close: () => fake.close(),
    };
  },
});
