import { parseArgs } from "node:util";
import { demoPlan } from "../demo/index.js";
import { startFakeGemini } from "./gemini/index.js";
import { untilStopped } from "./until-stopped.js";

const USAGE = "Usage: npm run fake:gemini -- [--port 0] [--host 127.0.0.1] [--key KEY] [--models a,b]";

/**
 * `npm run fake:gemini`: the fake Gemini API on a port, until Ctrl+C,
 * answering with the demo planner, so GEMINI_BASE_URL and
 * `npm run model:check` have something real-shaped to talk to.
 */
async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { port: { type: "string" }, host: { type: "string" }, key: { type: "string" }, models: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(`${USAGE}\n\nServes /v1beta/models/{model}:generateContent, :streamGenerateContent and :countTokens like the Gemini API.\nDefaults: a random port, any key accepted, model gemini-3.8-flash.`);
    return 0;
  }
  const port = Number((values.port as string | undefined) ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535\n${USAGE}`);
    return 2;
  }
  const models = (values.models as string | undefined)?.split(",").map((m) => m.trim()).filter(Boolean);
  const key = values.key as string | undefined;
  const fake = await startFakeGemini({ port, host: (values.host as string | undefined) ?? "127.0.0.1", ...(key ? { apiKey: key } : {}), ...(models?.length ? { models } : {}), responder: (body) => demoPlan(body) });
  console.log("Fake Gemini API, answering with the demo planner");
  console.log(`Base URL: ${fake.url}`);
  console.log(`API key:  ${key ?? "(any)"}`);
  console.log(`Models:   ${models?.join(", ") ?? "gemini-3.8-flash"}`);
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
