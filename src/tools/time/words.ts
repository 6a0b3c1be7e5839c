/** How the time tools write amounts for a person: durations, numbers with units. */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** "3 h 12 min", "45 min", "2 d 4 h", "30 s": the two largest units that matter. */
export function duration(ms: number): string {
  const abs = Math.max(0, Math.round(ms / 1000) * 1000);
  if (abs < MINUTE) return `${abs / 1000} s`;
  const total = Math.round(abs / MINUTE);
  const days = Math.floor(total / (DAY / MINUTE));
  const hours = Math.floor((total % (DAY / MINUTE)) / 60);
  const minutes = total % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}

/** A number as a person reads it: at most `decimals` decimals, without trailing zeros ("84.2", "12", "0.35"). */
export function num(value: number, decimals = 1): string {
  const fixed = value.toFixed(decimals);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** A value with its unit, "21.5 °C", "84.2 kWh", "3" when there is no unit. */
export function withUnit(value: number, unit: string | null | undefined, decimals = 1): string {
  return unit ? `${num(value, decimals)} ${unit}` : num(value, decimals);
}

/** Rounds a stored figure to three decimals, enough for any meter and free of float noise. */
export const round3 = (n: number): number => Math.round(n * 1000) / 1000;

export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;
