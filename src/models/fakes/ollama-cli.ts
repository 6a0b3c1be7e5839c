import { parseArgs } from "node:util";
import { echoResponder } from "./openai/index.js";
import { startFakeOllama } from "./ollama/index.js";
import { untilStopped } from "./until-stopped.js";

const USAGE = `Usage: npm run fake:ollama -- [--port 0] [--host 127.0.0.1] [--models qwen3:8b,llama3.1:8b] [--context 4096]

  --models a,b   the models pulled (default qwen3:8b; an empty list is a fresh install)
  --context N    OLLAMA_CONTEXT_LENGTH: the window of a request that sets no num_ctx, and of /v1 (default 4096)`;

/**
 * `npm run fake:ollama`: a fake Ollama on a port, until Ctrl+C, with its own
 * API and /v1, answering every chat by echoing the user (and calling a tool
 * when asked to in so many words, as `npm run model:check` asks), so
 * OLLAMA_URL and model:check have something real-shaped to talk to.
 */
async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { port: { type: "string" }, host: { type: "string" }, models: { type: "string" }, context: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = Number((values.port as string | undefined) ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535\n${USAGE}`);
    return 2;
  }
  const contextText = values.context as string | undefined;
  if (contextText !== undefined && !/^\d+$/.test(contextText)) {
    console.error(`--context must be a whole number of tokens, got "${contextText}"\n${USAGE}`);
    return 2;
  }
  const modelsText = values.models as string | undefined;
  const models = modelsText === undefined ? undefined : modelsText.split(",").map((m) => m.trim()).filter(Boolean);
  let fake;
  try {
    fake = await startFakeOllama({ port, host: (values.host as string | undefined) ?? "127.0.0.1", responder: echoResponder, ...(models ? { models } : {}), ...(contextText ? { defaultContext: Number(contextText) } : {}) });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    console.error(code === "EADDRINUSE" ? `Port ${port} is already in use; pick another with --port.` : `Cannot start the fake Ollama: ${(err as Error).message}`);
    return 1;
  }
  console.log("Fake Ollama, answering by echo");
  console.log(`Ollama URL: ${fake.url}   (model_provider: ollama, ollama_url)`);
  console.log(`/v1:        ${fake.v1Url}   (model_provider: openai, openai_base_url)`);
  console.log(`Models:     ${fake.models.join(", ") || "(none pulled)"}`);
  console.log("Press Ctrl+C to stop.");
  await untilStopped();
  await fake.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Fake Ollama failed: ${(err as Error).message ?? String(err)}`);
    process.exit(1);
  },
);
