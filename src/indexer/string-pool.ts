/**
 * One copy of each repeated short string the index keeps. Home Assistant
 * sends the same values for thousands of entities (a config entry id,
 * "measurement", a maker's name) and JSON.parse makes a new string for each
 * longer than ten characters; kept once per value, a home of 10,000
 * entities holds a few megabytes less. Equal strings are interchangeable, so
 * the pool may forget at any time: when full it starts again, and a long
 * run of one-off values (an attribute's timestamps) never holds more than
 * `maxEntries` strings.
 */
export class StringPool {
  #strings = new Map<string, string>();

  constructor(
    readonly maxEntries = 10_000,
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
    if (this.#strings.size >= this.maxEntries) this.#strings = new Map();
    this.#strings.set(value, value);
    return value;
  }

  /** A new list of the same strings, pooled. */
  list<T>(values: readonly T[]): T[] {
    return values.map((v) => this.of(v));
  }

  /**
   * A state's value or attribute as kept: pooled, unless it is a reading or
   * a time (it starts with a digit or a sign), which changes with every
   * update and would only crowd out the values that repeat.
   */
  ofState<T>(value: T): T {
    if (typeof value !== "string" || value.length === 0) return value;
    const first = value.charCodeAt(0);
    return (first >= 48 && first <= 57) || first === 45 || first === 43 ? value : this.of(value);
  }

  /**
   * A state's attributes with their string values pooled, and those of
   * string lists (a light's effect_list). friendly_name is nearly always one
   * entity's own, so it is left as it is.
   */
  attributes(attributes: Record<string, unknown>): Record<string, unknown> {
    for (const key of Object.keys(attributes)) {
      if (key === "friendly_name") continue;
      const value = attributes[key];
      if (typeof value === "string") attributes[key] = this.ofState(value);
      else if (Array.isArray(value) && value.length <= 200 && typeof value[0] === "string") attributes[key] = value.map((v) => this.ofState(v));
    }
    return attributes;
  }
}

/** The index's pool: registries and states of one home share their values. */
export const homeStrings = new StringPool();
