import type { ContinuationRecord } from "../../store/index.js";
import { USAGE_DAYS } from "./turn-records.js";
import type { UsageDay, UsageReport } from "./wire.js";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Tokens, turns and calls per day and model over the last 30 days (UTC days), oldest first. */
export function usageReport(records: readonly ContinuationRecord[], options: { now: number; retentionHours: number }): UsageReport {
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => dayOf(options.now - (USAGE_DAYS - 1 - i) * DAY_MS));
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
