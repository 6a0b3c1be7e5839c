import { pino, type Logger } from "pino";

export type { Logger };

/** A logger for the command line: warnings and errors, as JSON lines on stdout. */
export const createLogger = (options: { level: "debug" | "info" | "warn" | "error" }): Logger => pino({ level: options.level, base: undefined });

/** A logger that drops everything: the default when the caller passes none. */
export const silentLogger: Logger = pino({ level: "silent" });
