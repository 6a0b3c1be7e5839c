/**
 * Names as data, never layout. Whoever sets a name (an integration, a
 * device, a helper, a client's registration, a model's draft) can put line
 * breaks and bidirectional or invisible formatting characters in it, and so
 * make the text a person decides on read as something else: a second
 * question, a reversed word. Every place that shows a person a decision
 * builds its text with these functions.
 */

/**
 * Controls (line breaks included), format characters (bidi overrides and
 * isolates U+202A–U+202E and U+2066–U+2069, zero-width U+200B–U+200F, the BOM,
 * the soft hyphen) and line and paragraph separators (U+2028, U+2029).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name longer than this is cut: no real name is, and a page of text is not a name. */
export const NAME_MAX = 100;
/** Longer text shown in a decision (a call's data on one line) is cut here. */
export const TEXT_MAX = 2_000;

/** Each invisible character as its code point, `[U+202E]`: shown, so a person sees that it is there, never acted on. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`);
}

/** `text` made visible and cut to `max` characters (whole code points), with "…" where it was cut. */
export function shownText(text: string, max = TEXT_MAX): string {
  const chars = Array.from(visible(text));
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}

/** A name for a field of its own (`target_states[].name`, the console's target): made visible and capped, not quoted. */
export const cleanName = (name: string): string => shownText(name, NAME_MAX);

/** A name inside a sentence: cleaned, capped, and quoted, with quotes and backslashes inside it escaped (`"Say \"hi\""`). */
export const shownName = (name: string): string => JSON.stringify(cleanName(name));

/**
 * An entity as a decision names it: its id first (from the call, never from
 * a name), the quoted name beside it when it has one, and anything more
 * (its state now) after the name: `lock.front_door ("Front Door", now locked)`.
 */
export function namedEntity(entityId: string, name?: string, more?: string): string {
  const inner = [name ? shownName(name) : undefined, more].filter((part) => part !== undefined);
  return inner.length ? `${shownText(entityId, NAME_MAX)} (${inner.join(", ")})` : shownText(entityId, NAME_MAX);
}

/** A value (a call's data) as one line of JSON: JSON escapes quotes and C0 controls, this the rest (C1, format, separators). */
export const shownJson = (value: unknown, max = TEXT_MAX): string => shownText(JSON.stringify(value) ?? "null", max);

/**
 * Text whose line breaks are ours (a YAML config, a diff): each line made
 * visible on its own, so a name inside it can break no line and flip no
 * text, and the layout stays.
 */
export const shownLines = (text: string): string =>
  text
    .split("\n")
    .map((line) => visible(line))
    .join("\n");

/** A structure sent to a page that shows it (the console, events): every string in it, keys too, made visible; the shape stays. */
export function shownData<T>(value: T): T {
  return shownValue(value) as T;
}

function shownValue(value: unknown): unknown {
  if (typeof value === "string") return visible(value);
  if (Array.isArray(value)) return value.map(shownValue);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [visible(k), shownValue(v)]));
  return value;
}
