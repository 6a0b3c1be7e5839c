import { z } from "zod";
import { addLocalDays, fromLocal, localParts, startOfLocalDay } from "../../shared/index.js";

/**
 * The one way the time tools (and the energy analyst's `period`) read a
 * time: ISO 8601, or a form people type. Times without an offset, and the
 * calendar words, are in Home Assistant's time zone, which is only known when
 * the tool runs; so the schema parses the text into a `TimeSpec`, and
 * `resolveTime` turns that into an instant with the zone and the clock.
 */
export const TIME_FORMS =
  'ISO 8601 ("2026-11-20T18:00:00+01:00"; "2026-11-20T18:00" or "2026-11-20" in Home Assistant\'s time zone), "now", "-90m", "-24h", "-7d", "today" or "yesterday"';

export type TimeSpec =
  | { kind: "now" }
  | { kind: "ago"; amount: number; unit: "m" | "h" | "d" }
  | { kind: "today" }
  | { kind: "yesterday" }
  /** A wall-clock time in Home Assistant's zone. */
  | { kind: "local"; year: number; month: number; day: number; hour: number; minute: number; second: number; ms: number }
  | { kind: "instant"; ms: number };

const AGO = /^-(\d{1,6})\s*(m|h|d)$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
const OFFSET = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** The calendar fields are a real date and time (no 30 February, no 25:00). */
function realLocal(f: { year: number; month: number; day: number; hour: number; minute: number; second: number }): boolean {
  const d = new Date(Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second));
  return d.getUTCFullYear() === f.year && d.getUTCMonth() === f.month - 1 && d.getUTCDate() === f.day && d.getUTCHours() === f.hour && d.getUTCMinutes() === f.minute;
}

/** Reads one time as text; undefined when it is none of the accepted forms. */
export function parseTime(raw: string): TimeSpec | undefined {
  const text = raw.trim().toLowerCase();
  if (text === "now") return { kind: "now" };
  if (text === "today") return { kind: "today" };
  if (text === "yesterday") return { kind: "yesterday" };
  const ago = AGO.exec(text);
  if (ago) return { kind: "ago", amount: Number(ago[1]), unit: ago[2] as "m" | "h" | "d" };
  const upper = raw.trim().toUpperCase();
  if (OFFSET.test(upper) && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(upper)) {
    const ms = Date.parse(upper.replace(" ", "T"));
    return Number.isFinite(ms) ? { kind: "instant", ms } : undefined;
  }
  const local = LOCAL.exec(upper);
  if (!local) return undefined;
  const [, y, mo, d, h, mi, s, frac] = local;
  const fields = { year: Number(y), month: Number(mo), day: Number(d), hour: Number(h ?? 0), minute: Number(mi ?? 0), second: Number(s ?? 0) };
  if (!realLocal(fields)) return undefined;
  return { kind: "local", ...fields, ms: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0 };
}

/** A time argument: one of TIME_FORMS, parsed; a wrong one is refused with every accepted form. */
export const timeArgument = () =>
  z
    .string()
    .max(64, { error: `at most 64 characters: ${TIME_FORMS}` })
    .transform((text, ctx) => {
      const spec = parseTime(text);
      if (!spec) ctx.addIssue({ code: "custom", message: `"${text}" is not a time this tool reads; use ${TIME_FORMS}` });
      return spec ?? ({ kind: "now" } as TimeSpec);
    });

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * The instant a time names, at `now` in `zone`. `-7d` is the same wall-clock
 * time seven local days ago (across a DST change that is 167 or 169 hours);
 * `-90m` and `-24h` are exact. `today` and `yesterday` are local midnights.
 */
export function resolveTime(spec: TimeSpec, at: { now: number; zone: string }): number {
  const { now, zone } = at;
  switch (spec.kind) {
    case "now":
      return now;
    case "today":
      return startOfLocalDay(now, zone);
    case "yesterday":
      return addLocalDays(now, zone, -1);
    case "instant":
      return spec.ms;
    case "local":
      return fromLocal(zone, spec.year, spec.month, spec.day, spec.hour, spec.minute, spec.second) + spec.ms;
    case "ago": {
      if (spec.unit === "m") return now - spec.amount * MINUTE;
      if (spec.unit === "h") return now - spec.amount * HOUR;
      const p = localParts(now, zone);
      return fromLocal(zone, p.year, p.month, p.day - spec.amount, p.hour, p.minute, p.second) + (now % 1000);
    }
  }
}

/** A period to read, as instants; `end` is capped at now, since nothing is recorded after it. */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

/**
 * The period `start`..`end` (end: now when absent). A start that is not
 * before the end is refused, with what each side resolved to.
 */
export function resolveRange(args: { start: TimeSpec; end?: TimeSpec; now: number; zone: string }): { ok: true; range: TimeRange } | { ok: false; message: string } {
  const at = { now: args.now, zone: args.zone };
  const startMs = resolveTime(args.start, at);
  const endMs = Math.min(args.end ? resolveTime(args.end, at) : args.now, args.now);
  if (startMs >= args.now) return { ok: false, message: `start is ${new Date(startMs).toISOString()}, which is not in the past; nothing is recorded yet. Use ${TIME_FORMS}.` };
  if (startMs >= endMs) return { ok: false, message: `start (${new Date(startMs).toISOString()}) must be before end (${new Date(endMs).toISOString()}).` };
  return { ok: true, range: { startMs, endMs } };
}
