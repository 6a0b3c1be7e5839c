import { readFile } from "node:fs/promises";
import { ConfigError, loadConfig } from "../config/index.js";
import { describeError, silentLogger, systemClock } from "../shared/index.js";
import { checkModel, checkToolCall } from "./check.js";
import { ModelChoiceError } from "./model-choice-error.js";
import { createModelSource } from "./model-source.js";
import { PendingClient } from "./pending-client.js";
import { builtInModelProviders } from "./providers.js";
import { modelSettingsFrom } from "./settings.js";
import type { ModelClient, ModelSettings } from "./types.js";
import { windowProblem } from "./window-need.js";

const HELP = `Usage: npm run model:check

Checks the model settings HA Agent would use (the same environment variables,
or /data/options.json in the add-on) against the real server: which server
answers and through which API, the model, the context window in use and where
that figure came from, one tiny call (latency and token usage), one tiny real
tool call, and whether tool calls arrive whole when streamed. When something
is off, it says what to change, in HA Agent or on the server.

Settings: MODEL_PROVIDER (gemini | openai | ollama), MODEL, MODEL_CONTEXT_TOKENS,
GEMINI_API_KEY, GEMINI_BASE_URL, OPENAI_BASE_URL, OPENAI_API_KEY, OLLAMA_URL,
MODEL_TEMPERATURE, MODEL_STREAM, KEEP_ALIVE. With openai or ollama and no
MODEL, the server is asked which model it has.
Exit codes: 0 all is well, 1 something is off, 2 the settings are invalid.`;

const fmt = (n: number) => n.toLocaleString("en-US");
/** The most HA Agent asks a model to write in one answer. */
const ANSWER_CAP = 8_192;
const line = (label: string, text: string) => console.log(`${(label ? `${label}:` : "").padEnd(11)}${text.replace(/\s+/g, " ")}`);

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(HELP);
    return 0;
  }
  let config;
  const registry = builtInModelProviders();
  try {
    config = await loadConfig({ env: process.env, readFile: (p) => readFile(p, "utf8").catch(() => undefined), modelProviders: registry.selectable().map((p) => p.name) });
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : describeError(err));
    return 2;
  }
  const settings = modelSettingsFrom(config);
  const models = createModelSource({ registry, settings, clock: systemClock, logger: silentLogger });
  try {
    try {
      await models.init();
    } catch (err) {
      if (!(err instanceof ModelChoiceError)) throw err;
      console.error(err.message);
      return 2;
    }
    const configured = await models.get().catch((err: unknown) => {
      console.error(`The model cannot be set up: ${describeError(err)}`);
      return null;
    });
    if (configured === null) return 1;
    if (!configured) {
      console.error(models.missing());
      return 1;
    }
    const check = await checkModel(configured);
    if (!check.ok) {
      console.error(`The model did not answer: ${check.message}`);
      return 1;
    }
    // A client made while its server was down has asked it again by now.
    const client = configured instanceof PendingClient ? await configured.settle() : configured;
    return await report(client, settings, check);
  } finally {
    await models.close();
  }
}

/** Prints what was found, then what to change; 1 when anything is off. */
async function report(client: ModelClient, settings: ModelSettings, check: Extract<Awaited<ReturnType<typeof checkModel>>, { ok: true }>): Promise<number> {
  const fixes: string[] = [];
  const notes: string[] = [];
  const server = client.server;
  line("Server", server ? `${server.name} at ${server.url}, through ${server.api}` : client.provider === "gemini" ? "Google's Gemini API" : client.provider);
  line("Model", client.label);
  const f = client.facts;
  const source = f.windowSource ?? (f.known ? "HA Agent's model table" : "a conservative guess: the model is not in HA Agent's table");
  line("Window", `${fmt(f.contextWindow)} tokens, from ${source}`);
  const loaded = await (client as { loadedWindow?: () => Promise<number | undefined> }).loadedWindow?.();
  if (loaded !== undefined) line("", `Ollama runs the model with ${fmt(loaded)} now (/api/ps)`);
  line("Output", `up to ${fmt(Math.min(ANSWER_CAP, f.maxOutputTokens))} tokens an answer (the model allows ${fmt(f.maxOutputTokens)}), less when the window is small`);
  const tooSmall = windowProblem(f);
  if (tooSmall) fixes.push(tooSmall);
  line("Answer", `"${check.text.trim().slice(0, 60)}" in ${check.latencyMs} ms`);
  const u = check.usage;
  line("Usage", `${u.inputTokens} in, ${u.outputTokens} out, ${u.thinkingTokens} thinking, ${u.cachedTokens} cached${u.estimated ? " (estimated)" : ""}`);

  const streams = settings.stream ?? true;
  const first = await checkToolCall(client, streams);
  const other = first.outcome === "failed" ? undefined : await checkToolCall(client, !streams);
  const streamed = streams ? first : other;
  const whole = streams ? other : first;
  if (first.outcome === "failed") {
    line("Tools", `refused by the server (${first.code}); what to change is below`);
    // The message of a refusal no retry can fix already says what to change: a flag, a model, a key.
    fixes.push(first.message);
  } else if (first.outcome === "called") {
    line("Tools", `work: check_echo was called with ${first.args}`);
  } else if (other?.outcome === "called") {
    line("Tools", `work only ${streams ? "without" : "with"} streaming`);
  } else {
    line("Tools", `do not work: the model ${first.outcome === "not_called" ? first.said : "failed"} instead of calling check_echo`);
    fixes.push(`The model "${client.model}" does not call tools reliably: set model to one trained for tool use (on Ollama, ollama.com/search?c=tools lists them).`);
  }
  if (streamed?.outcome === "called") line("Streaming", "tool calls arrive whole when streamed");
  else if (streamed?.outcome === "not_called" && whole?.outcome === "called") {
    line("Streaming", `streamed tool calls arrive broken (the model ${streamed.said}), whole answers are fine`);
    if (streams) fixes.push("This server's streamed tool calls are broken: set model_stream: false (MODEL_STREAM=false).");
    else notes.push("Keep model_stream off: this server's streamed tool calls are broken.");
  } else if (streamed && first.outcome !== "failed") line("Streaming", "not known: the tool call did not work either way");

  if (server?.kind === "ollama" && settings.provider === "openai") {
    const root = server.url;
    notes.push(server.api.includes("/api/chat") ? `openai_base_url points at Ollama: set model_provider: ollama and ollama_url: ${root} to say so directly.` : "Only Ollama's /v1 answers: the context window cannot be set there, so long prompts are cut from the start. Set model_provider: ollama and ollama_url to Ollama itself.");
  }
  for (const note of notes) line("Note", note);
  if (fixes.length === 0) {
    console.log("All is well.");
    return 0;
  }
  console.error("To change:");
  for (const fix of fixes) console.error(`- ${fix}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`model:check could not finish: ${describeError(err)}`);
    process.exit(1);
  },
);
