import type { SystemLogEntry } from "./common/index.js";
import type { HomeModel } from "./home.js";

/** `system_log/list`: the house's log entries, newest first as HA lists them. */
export function systemLogEntries(home: HomeModel): SystemLogEntry[] {
  return [...(home.house.system_log ?? [])].sort((a, b) => b.timestamp - a.timestamp);
}

/**
 * `GET /api/error_log`: the house's own text if it has one, otherwise lines
 * in HA's log format made from the system log entries.
 */
export function errorLogText(home: HomeModel): string {
  if (home.house.error_log !== undefined) return home.house.error_log;
  const lines: string[] = [];
  const entries = [...(home.house.system_log ?? [])].sort((a, b) => a.timestamp - b.timestamp);
  for (const e of entries) {
    const when = new Date(e.timestamp * 1000).toISOString().replace("T", " ").replace("Z", "");
    for (const message of e.message) {
      lines.push(`${when} ${e.level} (MainThread) [${e.name}] ${message}`);
    }
    if (e.exception) lines.push(e.exception.trimEnd());
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
