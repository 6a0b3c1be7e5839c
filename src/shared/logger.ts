import { pino, type Logger } from "pino";
import { formatLogLine, type LogFormat } from "./log-format.js";

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

/** Where lines go; pino writes one complete JSON line per call. */
type Destination = { write(line: string): void };

/** `format` defaults to JSON, which tests read; the program passes the `log_format` option, whose default is text. */
export function createLogger(options: { level: LogLevel; format?: LogFormat; destination?: Destination }): Logger {
  const out: Destination = options.destination ?? pino.destination({ fd: 1, sync: true });
  // Readable lines are made from pino's JSON, after redaction, so no secret reaches either form.
  const destination = options.format !== "text" ? out : { write: (line: string) => out.write(formatLogLine(line)) };
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** A logger that drops everything, for tests and tools that run quietly. */
export const silentLogger: Logger = pino({ level: "silent" });
