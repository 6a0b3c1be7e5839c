/**
 * One copy of each repeated short string the index keeps. Home Assistant
 * sends the same values for thousands of entities (a config entry id,
 * "measurement", "°C", "sensor", a maker's name) and JSON.parse makes a new
 * string for each; kept once per value, a home of 10,000 entities holds a
 * few megabytes less. The pool is bounded: once full, new values are kept
 * as they come, so a stream of unique values cannot grow it without end.
 */
export class StringPool {
  readonly #strings = new Map<string, string>();

  constructor(
    readonly maxEntries = 50_000,
    readonly maxLength = 64,
  ) {}

  get size(): number {
    return this.#strings.size;
  }

  /** The pooled copy of `value`; other values (null, long strings, numbers) as given. */
  of<T>(value: T): T {
    if (typeof value !== "string" || value.length > this.maxLength) return value;
    const known = this.#strings.get(value);
    if (known !== undefined) return known as T;
    if (this.#strings.size < this.maxEntries) this.#strings.set(value, value);
    return value;
  }

  /** Each string of a list, pooled; the list itself is new only when one changed. */
  list<T>(values: readonly T[]): T[] {
    return values.map((v) => this.of(v));
  }

  /**
   * A state's attributes with their string values pooled, and those of
   * string lists (a light's effect_list). friendly_name is nearly always one
   * entity's own, so it is left as it is rather than filling the pool.
   */
  attributes(attributes: Record<string, unknown>): Record<string, unknown> {
    for (const key of Object.keys(attributes)) {
      if (key === "friendly_name") continue;
      const value = attributes[key];
      if (typeof value === "string") attributes[key] = this.of(value);
      else if (Array.isArray(value) && value.length <= 200 && typeof value[0] === "string") attributes[key] = this.list(value);
    }
    return attributes;
  }
}

/** The index's pool: registries and states of one home share their values. */
export const homeStrings = new StringPool();
