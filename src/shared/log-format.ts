/** How log lines look: one readable line per event, or pino's JSON for machines. */
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LEVEL_NAMES = new Set(["trace", "debug", "info", "warn", "error", "fatal"]);
const SKIPPED = new Set(["level", "time", "msg", "part", "pid", "hostname"]);
const MAX_VALUE_CHARS = 300;

/**
 * Turns one pino JSON line into a line a person reads in the add-on's Log
 * tab: `2026-11-22 22:31:05 INFO  [ha] connected  version=2026.11.1`.
 * Extra fields follow as key=value; nested values are compact JSON, cut
 * when long. A line that is not pino's JSON passes through unchanged.
 */
export function formatLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return line;
    record = parsed as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof record.time === "string" ? record.time.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "";
  const level = typeof record.level === "string" && LEVEL_NAMES.has(record.level) ? record.level.toUpperCase() : "INFO";
  const part = typeof record.part === "string" ? `[${record.part}] ` : "";
  const msg = typeof record.msg === "string" ? record.msg : "";
  const fields = Object.entries(record)
    .filter(([key, value]) => !SKIPPED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${show(value)}`);
  return `${[time, level.padEnd(5), `${part}${oneLine(msg)}`, ...fields].filter(Boolean).join(" ")}\n`;
}

function show(value: unknown): string {
  let text: string;
  if (typeof value === "string") {
    const flat = oneLine(value);
    text = /[\s"=]/.test(flat) || flat === "" ? JSON.stringify(flat) : flat;
  } else text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/** A stack or a multi-line message stays on one line, so each event is one line of the log. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " | ");
}
