import { pino, type Logger } from "pino";

export type { Logger };

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Paths that may carry credentials. pino replaces them before a line is
 * written, so a token never reaches the add-on's Log tab.
 */
const REDACT_PATHS = [
  "token",
  "*.token",
  "access_token",
  "*.access_token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "apiKey",
  "*.apiKey",
  "api_key",
  "*.api_key",
];

export function createLogger(options: { level: LogLevel; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ fd: 1, sync: true }),
  );
}

/** A logger that drops everything, for tests and tools that run quietly. */
export const silentLogger: Logger = pino({ level: "silent" });
