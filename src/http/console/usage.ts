import { localDay } from "../../shared/index.js";
import type { UsageTotals } from "../../store/index.js";
import { USAGE_DAYS } from "./turn-records.js";
import type { UsageDay, UsageReport } from "./wire.js";

const DAY_MS = 86_400_000;

/** The `count` calendar days up to `today` ("2026-11-26"), oldest first: date arithmetic, so a DST change never skips or repeats a day. */
function daysUpTo(today: string, count: number): string[] {
  const noon = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(noon - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * Tokens, turns and calls per day and model over the last 30 days (Home
 * Assistant's days), oldest first, from the store's usage ledger: its
 * quarter-hour slots add up into the home's days in any time zone.
 */
export function usageReport(slots: readonly UsageTotals[], options: { now: number; timeZone?: string }): UsageReport {
  const zone = options.timeZone ?? "UTC";
  const days = daysUpTo(localDay(options.now, zone), USAGE_DAYS);
  const shown = new Set(days);
  const rows = new Map<string, UsageDay>();
  for (const s of slots) {
    const day = localDay(s.at, zone);
    // A slot whose turns all ended before their first model call cost nothing.
    if (!shown.has(day) || s.modelCalls === 0) continue;
    const key = `${day} ${s.model}`;
    const row = rows.get(key) ?? { day, model: s.model, tokens: 0, turns: 0, modelCalls: 0, toolCalls: 0 };
    row.tokens += s.tokensIn + s.tokensOut + s.tokensThinking;
    row.turns += s.turns;
    row.modelCalls += s.modelCalls;
    row.toolCalls += s.toolCalls;
    rows.set(key, row);
  }
  return {
    days,
    rows: [...rows.values()].sort((a, b) => (a.day === b.day ? a.model.localeCompare(b.model) : a.day < b.day ? -1 : 1)),
    note: `Daily totals are kept for ${USAGE_DAYS} days, however long turns are kept; a turn counts on the day it began, once it has finished.`,
  };
}
