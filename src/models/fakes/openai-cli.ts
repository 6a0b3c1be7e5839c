import { parseArgs } from "node:util";
import { echoResponder, FAKE_FLAVOURS, startFakeOpenAiServer, type FakeFlavour } from "./openai/index.js";
import { untilStopped } from "./until-stopped.js";

const USAGE = `Usage: npm run fake:openai -- [--flavour openai|ollama|llama-server|vllm|lmstudio|gemini-openai] [--port 0] [--host 127.0.0.1] [--key KEY] [--models a,b]
  [--context N] [--no-jinja] [--auto-tool-choice] [--template mistral]

  --context N          llama-server's n_ctx (/props), vLLM's max_model_len, LM Studio's loaded context (default 16384)
  --no-jinja           llama-server started without --jinja: tools are refused (HTTP 500)
  --auto-tool-choice   vLLM started with --enable-auto-tool-choice --tool-call-parser (without it, tools are refused)
  --template mistral   a Mistral-family chat template: roles must alternate`;

/**
 * `npm run fake:openai`: a fake OpenAI-compatible server on a port, until
 * SIGINT or SIGTERM. It answers every chat request by echoing the user, so
 * `npm run model:check` and hand-made curl calls have something to talk to.
 */
async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        flavour: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        key: { type: "string" },
        models: { type: "string" },
        context: { type: "string" },
        "no-jinja": { type: "boolean" },
        "auto-tool-choice": { type: "boolean" },
        template: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const flavour = (values.flavour as string | undefined) ?? "openai";
  if (!FAKE_FLAVOURS.includes(flavour as FakeFlavour)) {
    console.error(`--flavour must be one of ${FAKE_FLAVOURS.join(", ")}, got "${flavour}"\n${USAGE}`);
    return 2;
  }
  const portText = (values.port as string | undefined) ?? "0";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535, got "${portText}"\n${USAGE}`);
    return 2;
  }
  const models = (values.models as string | undefined)
    ?.split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  const key = values.key as string | undefined;
  const contextText = values.context as string | undefined;
  if (contextText !== undefined && !/^\d+$/.test(contextText)) {
    console.error(`--context must be a whole number of tokens, got "${contextText}"\n${USAGE}`);
    return 2;
  }
  const template = values.template as string | undefined;
  if (template !== undefined && template !== "mistral") {
    console.error(`--template must be mistral, got "${template}"\n${USAGE}`);
    return 2;
  }
  let fake;
  try {
    fake = await startFakeOpenAiServer({
      flavour: flavour as FakeFlavour,
      port,
      host: (values.host as string | undefined) ?? "127.0.0.1",
      apiKey: key,
      models: models?.length ? models : undefined,
      responder: echoResponder,
      ...(contextText !== undefined ? { contextSize: Number(contextText) } : {}),
      ...(values["no-jinja"] ? { jinja: false } : {}),
      ...(values["auto-tool-choice"] ? { autoToolChoice: true } : {}),
      ...(template === "mistral" ? { chatTemplate: "mistral" as const } : {}),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    console.error(code === "EADDRINUSE" ? `Port ${port} is already in use; pick another with --port.` : `Cannot start the fake server: ${(err as Error).message}`);
    return 1;
  }
  console.log(`Fake OpenAI-compatible server (${fake.flavour} flavour), answering by echo`);
  console.log(`Base URL: ${fake.baseUrl}`);
  console.log(`API key:  ${fake.apiKey ?? "(none needed)"}`);
  console.log(`Models:   ${fake.models.join(", ")}`);
  console.log("Press Ctrl+C to stop.");
  await untilStopped();
  await fake.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Fake server failed: ${(err as Error).message ?? String(err)}`);
    process.exit(1);
  },
);
