import { writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { startApp, VERSION, type App } from "./app.js";
import { banner } from "./banner.js";
import { ConfigError, loadConfig, type AppConfig } from "./config/index.js";
import { HaAuthError } from "./ha/index.js";
import { builtInModelProviders, ModelChoiceError } from "./models/index.js";
import { DataDirError, DataDirInUseError, FORMAT_TOO_NEW_EXIT_CODE, FormatTooNewError } from "./store/index.js";
import { createLogger, describeError, systemClock, type Logger } from "./shared/index.js";
import { DemoUnavailableError } from "./demo-home.js";

/** How long a stop may take before the process gives up waiting; well under the add-on's 10 s. */
const STOP_DEADLINE_MS = 8_000;

/**
 * Log lines wait until the banner is out, so the first thing a person sees
 * is where to connect (and, in demo mode, with which token).
 */
function gatedStdout() {
  let queue: string[] | undefined = [];
  return {
    write(line: string) {
      if (queue) queue.push(line);
      else writeSync(1, line);
    },
    open() {
      const pending = queue ?? [];
      queue = undefined;
      for (const line of pending) writeSync(1, line);
    },
  };
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Signals and unexpected errors all end in `stop`, which runs only once. */
function installProcessHandlers(logger: Logger, stop: (code: number) => Promise<never>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info(`received ${signal}; stopping`);
    void stop(0);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("unhandledRejection", (reason) => {
    logger.error({ err: describeError(reason), stack: reason instanceof Error ? reason.stack : undefined }, "an operation failed without being handled; HA Agent keeps running");
  });
  process.on("uncaughtException", (err) => {
    logger.fatal({ err: describeError(err), stack: err.stack }, "unexpected error; stopping so the add-on can be restarted cleanly");
    void stop(1);
  });
}

async function main(): Promise<void> {
  let config: AppConfig;
  const modelProviders = builtInModelProviders();
  try {
    config = await loadConfig({ env: process.env, readFile: readOptional, modelProviders: modelProviders.selectable().map((p) => p.name) });
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : `Cannot read the configuration: ${describeError(err)}`);
    process.exit(2);
  }

  const out = gatedStdout();
  const logger = createLogger({ level: config.options.log_level, format: config.options.log_format, destination: out });
  let app: App | undefined;
  let stopping: Promise<never> | undefined;
  const stopOnce = async (code: number): Promise<never> => {
    const deadline = setTimeout(() => {
      logger.error(`stopping took longer than ${STOP_DEADLINE_MS / 1000} s; exiting anyway`);
      process.exit(code || 1);
    }, STOP_DEADLINE_MS);
    deadline.unref();
    await app?.stop();
    logger.info("stopped");
    out.open();
    process.exit(code);
  };
  // The first reason to stop wins; later ones wait for the same exit.
  const stop = (code: number): Promise<never> => (stopping ??= stopOnce(code));
  installProcessHandlers(logger, stop);

  try {
    app = await startApp({
      modelProviders,
      config,
      logger,
      clock: systemClock,
      host: config.mode === "demo" ? "127.0.0.1" : "0.0.0.0",
      onListening: (info) => {
        writeSync(1, banner(config, { ...info, version: VERSION, mcpPort: Number(new URL(info.mcpUrl).port), nodeVersion: process.versions.node }));
        out.open();
      },
    });
  } catch (err) {
    out.open();
    // Data of a newer HA Agent (a rolled-back add-on): nothing was changed, and the sentence says what to do.
    if (err instanceof FormatTooNewError) {
      console.error(err.message);
      process.exit(FORMAT_TOO_NEW_EXIT_CODE);
    }
    // A data directory that can never work or that another HA Agent holds, a model left to choose, or a demo this copy cannot run (no
    // simulator in the add-on image) is a setting to fix, like any other invalid setting.
    if (err instanceof DataDirError || err instanceof DataDirInUseError || err instanceof ModelChoiceError || err instanceof DemoUnavailableError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(`HA Agent could not start: ${describeError(err)}`);
    process.exit(1);
  }

  try {
    await app.ready;
  } catch (err) {
    // A stop while still connecting ends the connect attempt; that is not a failure.
    if (stopping) return;
    // The HA connection has logged the event; this is the one line that says why the program stops.
    console.error(err instanceof HaAuthError ? err.message : `Cannot reach Home Assistant: ${describeError(err)}`);
    await stop(1);
  }
}

void main();
