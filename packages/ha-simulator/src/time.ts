/**
 * Home Assistant writes timestamps as ISO 8601 with microseconds and an
 * explicit offset ("2026-11-21T07:55:12.482000+00:00"; "2026-11-21T07:55:12+00:00"
 * on a whole second), and as epoch seconds
 * (floats) in compressed messages.
 */
export function isoTime(ms: number): string {
  const text = new Date(ms).toISOString();
  // Python's isoformat() leaves out a fraction of zero microseconds.
  return ms % 1000 === 0 ? text.replace(".000Z", "+00:00") : text.replace("Z", "000+00:00");
}

/**
 * Rounds a millisecond time up to the next one whose epoch-seconds float
 * converts back to the same millisecond. Clients rebuild ISO strings from `lc`
 * and `lu` with `new Date(s * 1000)`, which truncates; without this a rebuilt
 * state could differ from `get_states` by a millisecond.
 */
export function stableMs(ms: number): number {
  let t = Math.floor(ms);
  while ((t / 1000) * 1000 !== t) t++;
  return t;
}
