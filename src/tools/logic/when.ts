import { localDay } from "../../shared/index.js";

/** "2026-11-25" → days since 1970, so two local days can be told apart by subtraction. */
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** The clock time of `ms` in `zone`, "22:14". */
function clockTime(ms: number, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);
}

/**
 * When something happened, as a person in the home says it: "22:14 today",
 * "22:14 yesterday", "07:30 on Monday" within the week, "07:30 on
 * 2026-11-02" before that. Home Assistant's time zone, no zone name: the
 * home's people live in it.
 */
export function spokenTime(ms: number, now: number, zone: string): string {
  const time = clockTime(ms, zone);
  const day = localDay(ms, zone);
  const days = dayNumber(localDay(now, zone)) - dayNumber(day);
  if (days === 0) return `${time} today`;
  if (days === 1) return `${time} yesterday`;
  if (days > 1 && days < 7) return `${time} on ${new Intl.DateTimeFormat("en-GB", { timeZone: zone, weekday: "long" }).format(ms)}`;
  return `${time} on ${day}`;
}

/** ISO 8601 with the zone's offset, "2026-11-25T22:14:03+01:00" (with `millis`, "…03.012+01:00"): the moment, as the home's clocks show it. */
export function zonedIso(ms: number, zone: string, millis = false): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offset = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const fraction = millis ? `.${String(((ms % 1000) + 1000) % 1000).padStart(3, "0")}` : "";
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${fraction}${sign}${hhmm}`;
}
