import type { z } from "zod";
import { pythonRepr, pythonString } from "../python-repr.js";

/**
 * HA validates every command with voluptuous and answers a mismatch with
 * `invalid_format` and `humanize_error(msg, err)`: one line per problem,
 * sorted, each `<what>[ for dictionary value] @ data['key'][0]. Got <repr>`.
 * This turns zod's issues into those lines, so a client that parses HA's
 * wording sees the same text here.
 */

/** voluptuous cuts the shown value at this many characters (MAX_VALIDATION_ERROR_ITEM_LENGTH). */
const MAX_SHOWN = 500;

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
