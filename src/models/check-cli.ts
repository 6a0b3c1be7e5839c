import { readFile } from "node:fs/promises";
import { ConfigError, loadConfig } from "../config/index.js";
import { describeError, silentLogger, systemClock } from "../shared/index.js";
import { checkModel } from "./check.js";
import { ModelChoiceError } from "./model-choice-error.js";
import { createModelSource } from "./model-source.js";
import { builtInModelProviders } from "./providers.js";
import { modelSettingsFrom } from "./settings.js";

const HELP = `Usage: npm run model:check

Checks the model settings HA Agent would use (the same environment variables,
or /data/options.json in the add-on): prints the provider, the model and its
limits, then makes one tiny call and shows its latency and token usage, or
says in one line what is wrong and which option fixes it.

Settings: MODEL_PROVIDER (gemini | openai), MODEL, MODEL_CONTEXT_TOKENS,
GEMINI_API_KEY, GEMINI_BASE_URL, OPENAI_BASE_URL, OPENAI_API_KEY. With
openai and no MODEL, the server is asked which model it serves.
Exit codes: 0 the model answered, 1 it did not, 2 the settings are invalid.`;

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
  const models = createModelSource({
    registry,
    settings: modelSettingsFrom(config),
    clock: systemClock,
    logger: silentLogger,
  });
  try {
    try {
      await models.init();
    } catch (err) {
      if (!(err instanceof ModelChoiceError)) throw err;
      console.error(err.message);
      return 2;
    }
    const client = await models.get().catch((err: unknown) => {
      console.error(`The model cannot be set up: ${describeError(err)}`);
      return null;
    });
    if (client === null) return 1;
    if (!client) {
      console.error(models.missing());
      return 1;
    }
    const f = client.facts;
    console.log(`Provider:  ${client.provider}`);
    console.log(`Model:     ${client.label}`);
    console.log(`Limits:    ${f.contextWindow.toLocaleString("en-US")}-token window, ${f.maxOutputTokens.toLocaleString("en-US")} tokens out${f.known ? "" : " (not in the model table: conservative guesses; see docs/models.md)"}`);
    const check = await checkModel(client);
    if (!check.ok) {
      console.error(`The model did not answer: ${check.message}`);
      return 1;
    }
    const u = check.usage;
    console.log(`Answer:    "${check.text.trim().slice(0, 60)}" in ${check.latencyMs} ms`);
    console.log(`Usage:     ${u.inputTokens} in, ${u.outputTokens} out, ${u.thinkingTokens} thinking, ${u.cachedTokens} cached${u.estimated ? " (estimated)" : ""}`);
    return 0;
  } finally {
    await models.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`model:check could not finish: ${describeError(err)}`);
    process.exit(1);
  },
);
