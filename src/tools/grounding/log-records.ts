import type { SystemLogEntry } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";

export const LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] as const;
type Level = (typeof LEVELS)[number];

/** One distinct log message (logger + level + text), however many times it occurred. */
export interface LogRecord {
  logger: string;
  integration: string;
  level: Level;
  message: string;
  count: number;
  /** Epoch milliseconds. */
  firstSeen: number;
  lastSeen: number;
  source: string;
  exception: string;
  origin: "system_log" | "error_log";
}

/**
 * The integration a logger belongs to: `homeassistant.components.zha.core` →
 * zha, `custom_components.foo.sensor` → foo; otherwise the source file's
 * `components/<name>/` folder, otherwise the logger's first part.
 */
function integrationOf(logger: string, sourcePath = ""): string {
  const fromLogger = /^(?:homeassistant\.components|custom_components)\.([a-z0-9_]+)/.exec(logger);
  if (fromLogger) return fromLogger[1]!;
  const fromSource = /(?:^|\/)(?:components|custom_components)\/([a-z0-9_]+)\//.exec(sourcePath);
  if (fromSource) return fromSource[1]!;
  return logger.split(".")[0] || logger;
}

function fromSystemLog(entries: SystemLogEntry[]): LogRecord[] {
  return entries.map((e) => ({
    logger: e.name,
    integration: integrationOf(e.name, e.source?.[0] ?? ""),
    level: e.level,
    message: e.message.join("\n"),
    count: e.count,
    firstSeen: e.first_occurred * 1000,
    lastSeen: e.timestamp * 1000,
    source: e.source ? `${e.source[0]}:${e.source[1]}` : "",
    exception: e.exception ?? "",
    origin: "system_log",
  }));
}

const LINE = /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s+(DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+\(([^)]*)\)\s+\[([^\]]+)\]\s?(.*)$/;

/**
 * Parses HA's text log (`home-assistant.log` format). Lines that do not start
 * a record (tracebacks) belong to the record above. Times without a zone are
 * taken as UTC.
 */
function parseErrorLog(text: string): LogRecord[] {
  const byKey = new Map<string, LogRecord>();
  let last: LogRecord | undefined;
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (!m) {
      if (last && line.trim()) last.exception += (last.exception ? "\n" : "") + line;
      continue;
    }
    const at = Date.parse(`${m[1]!.replace(" ", "T")}Z`);
    const logger = m[4]!;
    const level = m[2] as Level;
    const message = m[5]!;
    const key = `${logger}\u0000${level}\u0000${message}`;
    const prior = byKey.get(key);
    if (prior) {
      prior.count++;
      prior.firstSeen = Math.min(prior.firstSeen, at);
      prior.lastSeen = Math.max(prior.lastSeen, at);
      last = prior;
      continue;
    }
    last = { logger, integration: integrationOf(logger), level, message, count: 1, firstSeen: at, lastSeen: at, source: "", exception: "", origin: "error_log" };
    byKey.set(key, last);
  }
  return [...byKey.values()];
}

/** The system log's records, plus the text error log's records the system log does not already hold. */
export function logRecords(systemLog: SystemLogEntry[], errorLogText: string): LogRecord[] {
  const system = fromSystemLog(systemLog);
  const known = new Set(system.flatMap((r) => r.message.split("\n").map((m) => `${r.logger}\u0000${r.level}\u0000${m}`)));
  return [...system, ...parseErrorLog(errorLogText).filter((r) => !known.has(`${r.logger}\u0000${r.level}\u0000${r.message}`))];
}

const ENTITY_ID = /\b[a-z_][a-z0-9_]*\.[a-z0-9_]+\b/g;

/** Finds the entities and devices a record's message or traceback mentions, by entity id or by device name. */
export function createMentionMatcher(index: HomeIndex): (record: LogRecord) => { entityIds: string[]; deviceIds: string[] } {
  const devices = index
    .devices()
    .filter((d) => d.name.length >= 5)
    .map((d) => ({ id: d.deviceId, name: d.name.toLowerCase() }));
  return (record) => {
    const text = `${record.message}\n${record.exception}`;
    const entityIds = new Set<string>();
    for (const m of text.matchAll(ENTITY_ID)) if (index.entity(m[0])) entityIds.add(m[0]);
    const lower = text.toLowerCase();
    const deviceIds = new Set<string>();
    for (const d of devices) if (lower.includes(d.name)) deviceIds.add(d.id);
    for (const id of entityIds) {
      const dev = index.entity(id)?.deviceId;
      if (dev) deviceIds.add(dev);
    }
    return { entityIds: [...entityIds].sort(), deviceIds: [...deviceIds].sort() };
  };
}

export function atLeast(level: Level, min: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}
