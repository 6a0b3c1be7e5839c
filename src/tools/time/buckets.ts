import { addLocalDays, fromLocal, localParts, startOfLocalDay, startOfLocalWeek } from "../../shared/index.js";
import type { TimeRange } from "./time-input.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Bucket sizes a summary picks from: the smallest that keeps a period within the bucket count. */
const SIZES = [5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 7 * DAY];

/** At most this many buckets describe a numeric series, unless a token budget asks for fewer. */
export const MAX_BUCKETS = 24;

/**
 * The buckets a period is summarised in, at most `max`: whole local hours,
 * parts of a local day, local days, or weeks from Monday in `zone`, so a day
 * bucket is the day a person means even across a DST change. The first and
 * last are cut to the period.
 */
export function bucketBounds(range: TimeRange, zone: string, max = MAX_BUCKETS): [number, number][] {
  if (max < 1) return [];
  const span = range.endMs - range.startMs;
  const size = SIZES.find((s) => span / s <= max) ?? SIZES.at(-1)!;
  const bounds: number[] = [];
  if (size >= DAY) {
    const step = size === DAY ? 1 : 7;
    for (let t = size === DAY ? startOfLocalDay(range.startMs, zone) : startOfLocalWeek(range.startMs, zone); t < range.endMs; t = addLocalDays(t, zone, step)) bounds.push(t);
  } else {
    // Parts of a day follow the local clock from each midnight: 6-hour buckets are 00–06, 06–12, … as people
    // read them, and the bucket a DST change falls in is an hour longer or shorter.
    const minutes = size / MINUTE;
    for (let day = startOfLocalDay(range.startMs, zone); day < range.endMs; day = addLocalDays(day, zone, 1)) {
      const p = localParts(day, zone);
      const next = addLocalDays(day, zone, 1);
      for (let k = 0; ; k++) {
        const t = fromLocal(zone, p.year, p.month, p.day, 0, k * minutes);
        if (t >= next) break;
        if (t > (bounds.at(-1) ?? -Infinity)) bounds.push(t);
      }
    }
  }
  const out: [number, number][] = [];
  for (let i = 0; i < bounds.length; i++) {
    const start = Math.max(bounds[i]!, range.startMs);
    const end = Math.min(bounds[i + 1] ?? (size >= DAY ? addLocalDays(bounds[i]!, zone, size === DAY ? 1 : 7) : addLocalDays(startOfLocalDay(bounds[i]!, zone), zone, 1)), range.endMs);
    if (end > start) out.push([start, end]);
  }
  // A period the chosen size still splits into too many (a long range of weeks) keeps its most recent buckets.
  return out.slice(-max);
}
