import { parseArgs } from "node:util";
import { describeError } from "../../shared/index.js";
import { DEFAULT_GEMINI_MODEL } from "../gemini/index.js";
import { DEMO_MODEL } from "./provider.js";
import { loadFakeGemini } from "./gemini-port.js";
import { demoPlan } from "./planner.js";

/**
 * `npm run fake:gemini`: the demo model served alone over Gemini's API, until
 * Ctrl+C: the fake Gemini server of `@ha-agent/model-fakes` with the demo
 * planner as its mind. Point GEMINI_BASE_URL (or `npm run model:check`) at it
 * to drive HA Agent in add-on or standalone mode without a key.
 */
const USAGE = "Usage: npm run fake:gemini -- [--port 0] [--host 127.0.0.1] [--key KEY]";

async function main(): Promise<void> {
  let values: { port?: string; host?: string; key?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" }, key: { type: "string" }, help: { type: "boolean" } } }));
  } catch (err) {
    console.error(`${describeError(err)}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) return void console.log(USAGE);
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`--port must be a port number from 0 to 65535, got "${values.port}"\n${USAGE}`);
    process.exit(2);
  }
  const { startFakeGemini } = await loadFakeGemini();
  // The demo model's own name, and Gemini's default, so a GEMINI_BASE_URL pointed here works without a MODEL.
  const models = [DEMO_MODEL, DEFAULT_GEMINI_MODEL];
  const fake = await startFakeGemini({ port, host: values.host ?? "127.0.0.1", models, responder: (body) => demoPlan(body), ...(values.key ? { apiKey: values.key } : {}) });
  console.log(["Fake Gemini API, answering with the demo planner", `Base URL: ${fake.url}`, `API key:  ${values.key ?? "(any)"}`, `Models:   ${models.join(", ")}`].join("\n"));
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(`Cannot start the demo model: ${describeError(err)}`);
  process.exit(1);
});
