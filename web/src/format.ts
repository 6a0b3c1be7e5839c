/**
 * The one way the page writes numbers, counts, dates and times: in Home
 * Assistant's locale (its language and country) and time zone, whatever the
 * browser's are, so "7 Dec 2026, 18:24" on the page is 18:24 on the home's
 * clocks. Every element formats through a HomeFormat, and writes each moment
 * in a <time> element whose datetime attribute carries the exact instant.
 */
const DAY_MS = 86_400_000;

/** The locale Intl knows closest to `locale`, or English. */
function usableLocale(locale: string | undefined): string {
  try {
    return (locale && Intl.DateTimeFormat.supportedLocalesOf([locale])[0]) || "en";
  } catch {
    return "en";
  }
}

function usableZone(zone: string | undefined): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone ?? "UTC" });
    return zone ?? "UTC";
  } catch {
    return "UTC";
  }
}

export class HomeFormat {
  readonly locale: string;
  readonly timeZone: string;
  readonly #numbers: Intl.NumberFormat;
  readonly #decimals: Intl.NumberFormat;
  readonly #plurals: Intl.PluralRules;
  readonly #moment: Intl.DateTimeFormat;
  readonly #day: Intl.DateTimeFormat;
  readonly #dayShort: Intl.DateTimeFormat;

  constructor(o: { timeZone?: string; locale?: string } = {}) {
    this.locale = usableLocale(o.locale);
    this.timeZone = usableZone(o.timeZone);
    this.#numbers = new Intl.NumberFormat(this.locale);
    this.#decimals = new Intl.NumberFormat(this.locale, { maximumFractionDigits: 1 });
    // The words on the page are English; only numbers and dates follow the home's locale.
    this.#plurals = new Intl.PluralRules("en");
    this.#moment = new Intl.DateTimeFormat(this.locale, { dateStyle: "medium", timeStyle: "short", timeZone: this.timeZone });
    this.#day = new Intl.DateTimeFormat(this.locale, { dateStyle: "medium", timeZone: "UTC" });
    this.#dayShort = new Intl.DateTimeFormat(this.locale, { day: "numeric", month: "short", timeZone: "UTC" });
  }

  number(n: number): string {
    return this.#numbers.format(n);
  }

  /** "0.4", "12": at most one decimal. */
  decimal(n: number): string {
    return this.#decimals.format(n);
  }

  /** "1 turn", "2 turns", "1,234 tokens". */
  count(n: number, one: string, other = `${one}s`): string {
    return `${this.number(n)} ${this.#plurals.select(n) === "one" ? one : other}`;
  }

  bytes(n: number): string {
    return n >= 1_073_741_824 ? `${this.#decimals.format(Math.round(n / 107_374_182.4) / 10)} GB` : `${this.number(Math.round(n / 1_048_576))} MB`;
  }

  /** A moment, date and time, in Home Assistant's zone: "7 Dec 2026, 18:24" (en-NL), "Dec 7, 2026, 6:24 PM" (en-US). */
  moment(ms: number): string {
    return this.#moment.format(ms);
  }

  /** One of Home Assistant's calendar days, "2026-12-07", as the page writes a day: "7 Dec 2026". */
  day(day: string): string {
    return this.#day.format(Date.parse(`${day}T12:00:00Z`));
  }

  /** A day in the chart's axis, short: "7 Dec". */
  dayShort(day: string): string {
    return this.#dayShort.format(Date.parse(`${day}T12:00:00Z`));
  }

  /** The day of a chart point placed at a day's noon UTC (see usage-card.ts). */
  dayOfNoon(seconds: number): string {
    return new Date(Math.floor((seconds * 1000) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  }
}
