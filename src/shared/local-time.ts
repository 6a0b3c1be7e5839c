import type { Clock } from "./clock.js";

/** How long Home Assistant's time zone is used before it is read again: people rarely move their home. */
const ZONE_TTL_MS = 10 * 60_000;

/** A time zone this Node knows; HA's own names are IANA names, so this only guards against a broken config. */
export function knownTimeZone(zone: string | undefined): string {
  if (!zone) return "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/**
 * Home Assistant's time zone (`time_zone` in its `get_config`), read when
 * first asked and again after ten minutes. While HA cannot answer, the last
 * zone it gave is used, or UTC before it ever answered, so a time is always
 * written, and written in the zone the home's people live in.
 */
export function homeTimeZone(o: { read: () => Promise<{ time_zone?: string }>; clock: Clock }): () => Promise<string> {
  return cachedSetting({ ...o, pick: (config) => knownTimeZone(config.time_zone), fallback: "UTC" });
}

/**
 * Home Assistant's locale, from its `language` and `country` ("en" and "NL"
 * make "en-NL": English words, dates written as in the Netherlands), read
 * and kept as the time zone is; "en" before HA ever answered.
 */
export function homeLocale(o: { read: () => Promise<{ language?: string; country?: string | null }>; clock: Clock }): () => Promise<string> {
  return cachedSetting({ ...o, pick: (config) => knownLocale(config.language, config.country), fallback: "en" });
}

/** A locale Intl knows for HA's language and country: the pair when it is valid, else the language, else "en". */
export function knownLocale(language: string | undefined, country: string | null | undefined): string {
  for (const candidate of [language && country ? `${language}-${country}` : undefined, language]) {
    if (!candidate) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(candidate);
      if (canonical && Intl.DateTimeFormat.supportedLocalesOf([canonical]).length) return canonical;
    } catch {
      // not a locale tag: try the next
    }
  }
  return "en";
}

function cachedSetting<C>(o: { read: () => Promise<C>; clock: Clock; pick: (config: C) => string; fallback: string }): () => Promise<string> {
  let known: { value: string; at: number } | undefined;
  let reading: Promise<string> | undefined;
  return () => {
    if (known && o.clock.now() - known.at < ZONE_TTL_MS) return Promise.resolve(known.value);
    reading ??= o
      .read()
      .then(
        (config) => {
          known = { value: o.pick(config), at: o.clock.now() };
          return known.value;
        },
        () => known?.value ?? o.fallback,
      )
      .finally(() => (reading = undefined));
    return reading;
  };
}

/** The calendar day and the clock time of `ms` in `zone`, as "2026-11-26" and "14:02", with the zone's short name ("CET"). */
function parts(ms: number, zone: string): { day: string; time: string; name: string } {
  const format = new Intl.DateTimeFormat("en-GB", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
  const p = Object.fromEntries(format.formatToParts(ms).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}`, name: p.timeZoneName ?? zone };
}

/** A time as a person in the home reads it, "14:02 CET", with the date when it is not the day of `now` there. */
export function localTime(ms: number, now: number, zone: string): string {
  const at = parts(ms, zone);
  const time = `${at.time} ${at.name}`;
  return at.day === parts(now, zone).day ? time : `${at.day} ${time}`;
}

/** A moment with its date, "2026-11-26 14:02 CET", for headings that say when something was true. */
export function localStamp(ms: number, zone: string): string {
  const at = parts(ms, zone);
  return `${at.day} ${at.time} ${at.name}`;
}

/** The calendar day of `ms` in `zone`, "2026-11-26". */
export const localDay = (ms: number, zone: string): string => parts(ms, zone).day;
