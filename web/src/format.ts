/**
 * One way to write numbers, counts and times on the whole page: numbers
 * with the browser's grouping (Intl.NumberFormat), counts with real plurals,
 * times in Home Assistant's time zone with its name, so "14:02 CET" on the
 * page is 14:02 on the home's clocks.
 */
const numbers = new Intl.NumberFormat();
const plurals = new Intl.PluralRules("en");

export const formatNumber = (n: number): string => numbers.format(n);

/** "1 turn", "2 turns", "1,234 tokens". */
export const count = (n: number, one: string, other = `${one}s`): string => `${formatNumber(n)} ${plurals.select(n) === "one" ? one : other}`;

// dateStyle and timeStyle cannot carry a zone name, so the fields are named one by one.
export const formatTime = (ms: number, timeZone?: string): string =>
  new Date(ms).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short", ...(timeZone ? { timeZone } : {}) });

export const formatBytes = (n: number): string => (n >= 1_073_741_824 ? `${numbers.format(Math.round(n / 107_374_182.4) / 10)} GB` : `${formatNumber(Math.round(n / 1_048_576))} MB`);

const decimals = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
/** "0.4", "12": at most one decimal. */
export const formatDecimal = (n: number): string => decimals.format(n);
