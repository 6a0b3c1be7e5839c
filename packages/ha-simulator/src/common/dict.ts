/**
 * Lookups keyed by text that comes from users or from Home Assistant (entity
 * ids, area names, attribute names, service names). A plain `{}` answers
 * `constructor`, `toString` or `__proto__` from Object.prototype, and
 * assigning `__proto__` replaces its prototype instead of storing a value;
 * these helpers never do either.
 */

/** An empty object with no prototype, optionally filled from `init`'s own entries: every string is an ordinary key. */
export function dict<V>(init?: Readonly<Record<string, V>>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  if (init) for (const [key, value] of Object.entries(init)) out[key] = value;
  return out;
}

/** The value stored under `key` on `record` itself, never one inherited from Object.prototype. */
export function own<V>(record: Readonly<Record<string, V>> | null | undefined, key: string): V | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}
