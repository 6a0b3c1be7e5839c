import { addLocalDays, addLocalMonths, localDay, localStamp, localTime, startOfLocalDay, startOfLocalMonth, startOfLocalWeek } from "../../shared/index.js";
import type { TimeRange } from "./time-input.js";

/** The calendar periods of Home Assistant's Energy dashboard and of `recorder/statistics_during_period` (besides `5minute`). */
export const CALENDAR_PERIODS = ["hour", "day", "week", "month"] as const;
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];

const HOUR = 3_600_000;

/**
 * Where the period holding `ms` starts, as HA's recorder counts it
 * (`recorder/statistics.py`): hours are UTC hours, days start at local
 * midnight, weeks on Monday, months on the first, all in `zone`.
 */
export function periodStart(period: CalendarPeriod, ms: number, zone: string): number {
  switch (period) {
    case "hour":
      return Math.floor(ms / HOUR) * HOUR;
    case "day":
      return startOfLocalDay(ms, zone);
    case "week":
      return startOfLocalWeek(ms, zone);
    case "month":
      return startOfLocalMonth(ms, zone);
  }
}

/** Where the period that starts at `start` ends: a local day can be 23 or 25 hours long. */
export function periodEnd(period: CalendarPeriod, start: number, zone: string): number {
  switch (period) {
    case "hour":
      return start + HOUR;
    case "day":
      return addLocalDays(start, zone, 1);
    case "week":
      return addLocalDays(start, zone, 7);
    case "month":
      return addLocalMonths(start, zone, 1);
  }
}

/**
 * A range widened to whole periods, as the Energy dashboard shows a day, a
 * week or a month: from the start of the period holding `startMs` to the end
 * of the one holding the range's last moment, but never past now.
 */
export function alignRange(args: { period: CalendarPeriod; range: TimeRange; zone: string; now: number }): TimeRange {
  const { period, range, zone } = args;
  const startMs = periodStart(period, range.startMs, zone);
  const endMs = periodEnd(period, periodStart(period, range.endMs - 1, zone), zone);
  return { startMs, endMs: Math.min(endMs, args.now) };
}

const NOW_SLACK_MS = 60_000;
const DAY = 86_400_000;

/** "3 days ago", "5 hours ago": how long before now, for a person; days are calendar days in `zone`. */
export function ago(ms: number, at: { now: number; zone: string }): string {
  const d = at.now - ms;
  if (d < 2 * HOUR) return `${Math.max(1, Math.round(d / 60_000))} min ago`;
  const days = Math.round((startOfLocalDay(at.now, at.zone) - startOfLocalDay(ms, at.zone)) / DAY);
  if (days < 2) return `${Math.round(d / HOUR)} hours ago`;
  return `${days} days ago`;
}

/**
 * The period as a person names it: "today", "yesterday", "this week", "last
 * month", "on 2026-11-20", or "from 2026-11-19 14:00 CET (7 days ago) to now".
 */
export function describeRange(range: TimeRange, at: { now: number; zone: string }): string {
  const { now, zone } = at;
  const { startMs, endMs } = range;
  const toNow = now - endMs < NOW_SLACK_MS;
  const today = startOfLocalDay(now, zone);
  const week = startOfLocalWeek(now, zone);
  const month = startOfLocalMonth(now, zone);
  if (toNow && startMs === today) return "today";
  if (toNow && startMs === week) return "this week";
  if (toNow && startMs === month) return "this month";
  if (endMs === today && startMs === addLocalDays(now, zone, -1)) return "yesterday";
  if (endMs === week && startMs === addLocalDays(week, zone, -7)) return "last week";
  if (endMs === month && startMs === addLocalMonths(month, zone, -1)) return "last month";
  if (startMs === startOfLocalDay(startMs, zone) && endMs === addLocalDays(startMs, zone, 1)) return `on ${localDay(startMs, zone)}`;
  const from = localTime(startMs, now, zone);
  const since = startMs < today ? ` (${ago(startMs, at)})` : "";
  return `from ${from}${since} to ${toNow ? "now" : localTime(endMs, now, zone)}`;
}

/** A period for a heading: its name with its exact bounds, "this week (2026-11-23 00:00 CET to 2026-11-26 14:00 CET)". */
export function periodHeading(range: TimeRange, at: { now: number; zone: string }): string {
  const label = describeRange(range, at);
  // A period without a name already says where it starts and ends.
  return label.startsWith("from ") ? label : `${label} (${localStamp(range.startMs, at.zone)} to ${localStamp(range.endMs, at.zone)})`;
}
