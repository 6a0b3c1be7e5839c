import type { z } from "zod";

/**
 * HA validates every command with voluptuous and answers a mismatch with
 * `invalid_format` and `humanize_error(msg, err)`: one line per problem,
 * sorted, each `<what>[ for dictionary value] @ data['key'][0]. Got <repr>`.
 * This turns zod's issues into those lines, so a client that parses HA's
 * wording sees the same text here.
 */

/** voluptuous cuts the shown value at this many characters (MAX_VALIDATION_ERROR_ITEM_LENGTH). */
const MAX_SHOWN = 500;

/** Python's `repr` of a JSON value: `'text'`, `True`, `None`, `[1, 2]`, `{'a': 1}`. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (typeof value === "string") return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pythonString(k)}: ${pythonRepr(v)}`).join(", ")}}`;
  }
  return pythonString(String(value));
}

function pythonFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  return String(n);
}

/** Single quotes unless the text holds a single quote and no double quote, as Python chooses. */
function pythonString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** `data['target']['entity_id'][0]`, or `` for the message itself. */
function pathText(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "" : ` @ data[${path.map((p) => (typeof p === "number" ? String(p) : pythonString(String(p)))).join("][")}]`;
}

/** The value at `path` in the raw message, or undefined (shown as None) when there is none. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const p of path) {
    if (typeof v !== "object" || v === null || !Object.hasOwn(v, p)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** One humanized line: the message, where it happened, and the offending value. */
export function humanizeLine(data: unknown, message: string, path: readonly PropertyKey[]): string {
  let shown = pythonRepr(valueAt(data, path));
  if (shown.length > MAX_SHOWN) shown = `${shown.slice(0, MAX_SHOWN - 3)}...`;
  return `${message}${pathText(path)}. Got ${shown}`;
}

/**
 * voluptuous's lines for zod's issues on `data`. A value error directly under
 * a key reads "… for dictionary value"; one inside a list item does not.
 */
export function humanizeIssues(data: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) lines.push(humanizeLine(data, "extra keys not allowed", [...path, key]));
      continue;
    }
    const parent = valueAt(data, path.slice(0, -1));
    const last = path[path.length - 1];
    const missing = last !== undefined && typeof parent === "object" && parent !== null && !Array.isArray(parent) && !Object.hasOwn(parent, last);
    if (missing) {
      lines.push(humanizeLine(data, "required key not provided", path));
      continue;
    }
    const what = typeof last === "string" ? `${issue.message} for dictionary value` : issue.message;
    lines.push(humanizeLine(data, what, path));
  }
  return lines.sort().join("\n");
}
