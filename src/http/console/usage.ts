import { localDay } from "../../shared/index.js";
import type { ContinuationRecord } from "../../store/index.js";
import { USAGE_DAYS } from "./turn-records.js";
import type { UsageDay, UsageReport } from "./wire.js";

const DAY_MS = 86_400_000;

/** The `count` calendar days up to `today` ("2026-11-26"), oldest first: date arithmetic, so a DST change never skips or repeats a day. */
function daysUpTo(today: string, count: number): string[] {
  const noon = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(noon - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Tokens, turns and calls per day and model over the last 30 days (Home Assistant's days), oldest first. */
export function usageReport(records: readonly ContinuationRecord[], options: { now: number; retentionHours: number; timeZone?: string }): UsageReport {
  const zone = options.timeZone ?? "UTC";
  const dayOf = (ms: number) => localDay(ms, zone);
  const days = daysUpTo(dayOf(options.now), USAGE_DAYS);
  const rows = new Map<string, UsageDay>();
  for (const r of records) {
    const day = dayOf(r.createdAt);
    // A turn cancelled or refused before its first model call cost nothing.
    if (!days.includes(day) || r.usage.modelCalls === 0) continue;
    const model = r.usage.model ?? r.request.model ?? "unknown";
    const key = `${day} ${model}`;
    const row = rows.get(key) ?? { day, model, tokens: 0, turns: 0, modelCalls: 0, toolCalls: 0 };
    row.tokens += r.usage.tokensIn + r.usage.tokensOut + r.usage.tokensThinking;
    row.turns += 1;
    row.modelCalls += r.usage.modelCalls;
    row.toolCalls += r.usage.toolCalls;
    rows.set(key, row);
  }
  return {
    days,
    rows: [...rows.values()].sort((a, b) => (a.day === b.day ? a.model.localeCompare(b.model) : a.day < b.day ? -1 : 1)),
    note: `Turns are kept for ${options.retentionHours} hours (continuation_retention_hours), so only the days they still cover are counted.`,
  };
}
