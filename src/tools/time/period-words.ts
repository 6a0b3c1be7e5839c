import { z } from "zod";
import { addLocalDays, localDay, startOfLocalMonth } from "../../shared/index.js";
import type { CalendarPeriod } from "./periods.js";
import { parseTime, TIME_FORMS } from "./time-input.js";

/** A period as people name one, for the energy analyst's `period`: the time forms, and the calendar words. */
export const PERIOD_FORMS = `"this week", "last week", "this month", "last month", or a start in the time forms: ${TIME_FORMS}`;

/** What the energy tool is asked for a named period: its start in the time forms, and the calendar period it fills. */
export interface NamedPeriod {
  start: string;
  period?: CalendarPeriod;
}

const WORDS = new Map<string, (at: { now: number; zone: string }) => NamedPeriod>([
  ["this week", () => ({ start: "today", period: "week" })],
  ["this month", () => ({ start: "today", period: "month" })],
  // Seven local days back is always in the week before this one.
  ["last week", () => ({ start: "-7d", period: "week" })],
  ["last month", (at) => ({ start: localDay(addLocalDays(startOfLocalMonth(at.now, at.zone), at.zone, -1), at.zone), period: "month" })],
]);

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The energy tool's arguments for a period people name: "today" and
 * "yesterday" and a date are that local day, "this week" runs from Monday,
 * "last month" is the whole of it, and any other start ("-7d",
 * "2026-11-20T18:00") runs to now. Undefined when it is none of these.
 */
export function namedPeriod(text: string, at: { now: number; zone: string }): NamedPeriod | undefined {
  const key = text.trim().toLowerCase().replace(/\s+/g, " ");
  const word = WORDS.get(key);
  if (word) return word(at);
  const spec = parseTime(key);
  if (!spec) return undefined;
  if (spec.kind === "today" || spec.kind === "yesterday" || DATE_ONLY.test(key)) return { start: key, period: "day" };
  return { start: text.trim() };
}

/** The period argument: text that `namedPeriod` reads; anything else is refused with every form. */
export const periodArgument = () =>
  z
    .string()
    .min(1)
    .max(100)
    .refine((text) => namedPeriod(text, { now: 0, zone: "UTC" }) !== undefined, { error: (issue) => `"${String(issue.input)}" is not a period this reads; use ${PERIOD_FORMS}` });
