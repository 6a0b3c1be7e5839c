/**
 * Wall-clock arithmetic in Home Assistant's configured time zone. HA counts
 * days, weeks (from Monday) and months of statistics from local midnight
 * (`recorder/statistics.py`, `reduce_day_ts_factory` and friends), and its
 * time triggers and `now()` read local time; the simulator counts its
 * statistics, time triggers and templates this way. HA Agent counts its
 * periods with the same arithmetic on its own side; this package keeps its
 * own copy because it must not import the product.
 */

export interface LocalParts {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Monday … 6 = Sunday, as Python's `weekday()`. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = new Map(Object.entries({ Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 }));

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", weekday: "short",
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The local calendar fields of an instant, computed from the zone's UTC offset (cached per UTC day). */
export function localParts(ms: number, tz: string): LocalParts {
  const d = new Date(ms + offsetMs(ms, tz));
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(),
    weekday: (d.getUTCDay() + 6) % 7,
  };
}

/** The local fields as Intl reports them; the slow, exact path. */
function intlParts(ms: number, tz: string): LocalParts {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
  for (const p of formatter(tz).formatToParts(ms)) {
    if (p.type === "weekday") out.weekday = WEEKDAYS.get(p.value) ?? 0;
    else if (Object.hasOwn(out, p.type)) (out as Record<string, number>)[p.type] = Number(p.value);
  }
  return out;
}

function exactOffset(ms: number, tz: string): number {
  const p = intlParts(ms, tz);
  const whole = Math.floor(ms / 1000) * 1000;
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - whole;
}

const DAY = 86_400_000;
/** tz → UTC day → the offset, when it is the same all day (else NaN: that day has a DST change). */
const dayOffsets = new Map<string, Map<number, number>>();

/** Local time minus UTC at that instant, in ms (Amsterdam in winter: 3,600,000). */
export function offsetMs(ms: number, tz: string): number {
  let days = dayOffsets.get(tz);
  if (!days) dayOffsets.set(tz, (days = new Map()));
  const day = Math.floor(ms / DAY);
  let offset = days.get(day);
  if (offset === undefined) {
    const start = exactOffset(day * DAY, tz);
    offset = start === exactOffset(day * DAY + DAY - 1000, tz) ? start : NaN;
    if (days.size > 4000) days.clear();
    days.set(day, offset);
  }
  return Number.isNaN(offset) ? exactOffset(ms, tz) : offset;
}

/**
 * The instant of a local wall-clock time. Fields may overflow (day 32 is the
 * next month). A time skipped by a DST change resolves forwards, as Python's
 * zoneinfo does for `fold=0`.
 */
export function fromLocal(tz: string, year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  let guess = asUtc - offsetMs(asUtc, tz);
  // A second pass settles the offset when the first guess fell across a DST change.
  guess = asUtc - offsetMs(guess, tz);
  return guess;
}

export function startOfLocalDay(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return fromLocal(tz, p.year, p.month, p.day);
}

/** Local midnight `days` days after the local day holding `ms`. */
export function addLocalDays(ms: number, tz: string, days: number): number {
  const p = localParts(ms, tz);
  return fromLocal(tz, p.year, p.month, p.day + days);
}

/** Monday, local midnight, as HA's weekly statistics start. */
export function startOfLocalWeek(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return fromLocal(tz, p.year, p.month, p.day - p.weekday);
}

export function startOfLocalMonth(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return fromLocal(tz, p.year, p.month, 1);
}

export function addLocalMonths(ms: number, tz: string, months: number): number {
  const p = localParts(ms, tz);
  return fromLocal(tz, p.year, p.month + months, 1);
}

/** The most recent instant at or before `ms` whose local time is hh:mm. */
export function lastLocalTime(ms: number, tz: string, hour: number, minute: number): number {
  const p = localParts(ms, tz);
  const today = fromLocal(tz, p.year, p.month, p.day, hour, minute);
  return today <= ms ? today : fromLocal(tz, p.year, p.month, p.day - 1, hour, minute);
}

/** ISO 8601 with the local offset and microseconds, as Python's `datetime.isoformat()` writes an aware local time. */
export function localIso(ms: number, tz: string): string {
  const off = offsetMs(ms, tz);
  const local = new Date(ms + off).toISOString().slice(0, 23);
  const sign = off < 0 ? "-" : "+";
  const abs = Math.abs(off) / 60_000;
  const fraction = ms % 1000 === 0 ? "" : `${local.slice(19)}000`;
  return `${local.slice(0, 19)}${fraction}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
