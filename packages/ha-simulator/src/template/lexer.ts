import { fail } from "./values.js";

export type Segment = { kind: "text"; text: string } | { kind: "expr"; src: string } | { kind: "stmt"; src: string };

/**
 * Splits a template into text, `{{ expressions }}` and `{% statements %}`,
 * dropping `{# comments #}`, with Jinja's `-` whitespace control.
 */
export function segments(template: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  let stripNext = false;
  while (i < template.length) {
    const open = /\{[{%#]/g;
    open.lastIndex = i;
    const m = open.exec(template);
    let text = template.slice(i, m ? m.index : template.length);
    if (stripNext) text = text.replace(/^\s+/, "");
    stripNext = false;
    if (!m) {
      if (text) out.push({ kind: "text", text });
      break;
    }
    const opener = m[0];
    let start = m.index + 2;
    if (template[start] === "-") {
      text = text.replace(/\s+$/, "");
      start++;
    }
    if (text) out.push({ kind: "text", text });
    const closer = opener === "{{" ? "}}" : opener === "{%" ? "%}" : "#}";
    const end = findClose(template, start, closer);
    if (end < 0) fail("TemplateSyntaxError", opener === "{#" ? "Missing end of comment tag" : `unexpected end of template, expected '${closer}'.`);
    let inner = template.slice(start, end);
    if (inner.endsWith("-")) {
      inner = inner.slice(0, -1);
      stripNext = true;
    }
    if (opener === "{{") out.push({ kind: "expr", src: inner });
    else if (opener === "{%") out.push({ kind: "stmt", src: inner });
    i = end + 2;
  }
  return out;
}

/** The closing delimiter, skipping any inside string literals. */
function findClose(t: string, from: number, closer: string): number {
  let quote: string | undefined;
  for (let i = from; i < t.length - 1; i++) {
    const c = t[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (t.startsWith(closer, i)) return i;
  }
  return -1;
}

export interface Token {
  kind: "num" | "str" | "op" | "name";
  text: string;
  /** For numbers: whether the literal is a float (`1.0`, `1e3`). */
  float?: boolean;
}

const TOKEN = /\s*(?:(\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\.\d+)|(\d+)|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(\*\*|\/\/|==|!=|<=|>=|[-+*/%()<>,|.[\]{}:~=])|([A-Za-z_][A-Za-z0-9_]*))/y;

/** The tokens of one expression or statement. */
export function tokens(source: string): Token[] {
  const out: Token[] = [];
  const text = source.trim();
  let at = 0;
  TOKEN.lastIndex = 0;
  while (at < text.length) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m || m[0].trim() === "") {
      if (text.slice(at).trim() === "") break;
      fail("TemplateSyntaxError", `unexpected char ${JSON.stringify(text.slice(at).trim()[0])}`);
    }
    at = TOKEN.lastIndex;
    if (m![1] !== undefined) out.push({ kind: "num", text: m![1], float: true });
    else if (m![2] !== undefined) out.push({ kind: "num", text: m![2] });
    else if (m![3] !== undefined || m![4] !== undefined) out.push({ kind: "str", text: unescape((m![3] ?? m![4])!) });
    else if (m![5] !== undefined) out.push({ kind: "op", text: m![5] });
    else out.push({ kind: "name", text: m![6]! });
  }
  return out;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}
