import type { HassState } from "../common/index.js";
import { dict } from "../common/index.js";
import type { Env } from "./env.js";
import { renderNodes, TimeoutSignal } from "./evaluate.js";
import { parseExpression, type Expr } from "./parser.js";
import { parseTemplate } from "./statements.js";
import { PyFloat, TemplateError } from "./values.js";

export { TemplateError } from "./values.js";

export interface RenderOptions {
  nowMs?: number;
  timeZone?: string;
  /** `strict`: an undefined name is an error instead of an empty string and a warning. */
  strict?: boolean;
  /** Every state, for `states`, `states.<domain>` and `expand`. */
  allStates?: () => HassState[];
  /** Gives up after this long (`render_template`'s `timeout`). */
  timeoutMs?: number;
  /** Warnings HA logs while rendering (undefined names), with HA's wording. */
  onWarning?: (message: string) => void;
}

export interface RenderResult {
  result: unknown;
  /** What the rendering read: HA's RenderInfo, which `render_template` reports as `listeners`. */
  entities: string[];
  domains: string[];
  all: boolean;
  time: boolean;
}

/** The rendering took longer than its timeout. */
export class TemplateTimeout extends Error {}

/**
 * Renders a template the way HA's `Template.async_render` does (Jinja with
 * HA's functions and filters, `helpers/template/__init__.py`): the output is
 * stripped, then read as a Python literal when it is one (a number, a list,
 * True, None…), else kept as text. Unsupported parts of Jinja fail with a
 * `TemplateError` that says so.
 */
export function renderTemplate(template: string, lookup: (entityId: string) => HassState | undefined, variables: Record<string, unknown> = {}, options: RenderOptions = {}): RenderResult {
  const env: Env = {
    lookup,
    allStates: options.allStates ?? (() => []),
    scopes: [new Map(Object.entries(variables))],
    nowMs: options.nowMs ?? Date.now(),
    timeZone: options.timeZone ?? "UTC",
    strict: options.strict ?? false,
    warn: (hint) => options.onWarning?.(`Template variable warning: ${hint} when rendering '${template}'`),
    deadline: options.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs,
    info: { entities: new Set(), domains: new Set(), all: false, time: false },
  };
  const out = { parts: [] as string[], values: [] as unknown[] };
  try {
    renderNodes(parseTemplate(template), env, out);
  } catch (err) {
    if (err instanceof TimeoutSignal) throw new TemplateTimeout();
    if (err instanceof TemplateError) throw err;
    if (err instanceof RangeError) throw new TemplateError(`RecursionError: ${err.message}`);
    throw err;
  }
  const text = out.parts.join("").trim();
  return { result: parseResult(text), entities: [...env.info.entities], domains: [...env.info.domains], all: env.info.all, time: env.info.time };
}

const IS_NUMERIC = /^[+-]?(?!0\d)\d*(?:\.\d*)?$/;

/** HA's `_parse_result`: a Python literal becomes its value (strings keep the rendered text; "007" stays text). */
export function parseResult(text: string): unknown {
  let expr: Expr;
  try {
    expr = parseExpression(text);
  } catch {
    return text;
  }
  const value = literal(expr);
  if (value === NOT_LITERAL || typeof value === "string") return text;
  if (typeof value === "number" && !IS_NUMERIC.test(text)) return text;
  return value;
}

const NOT_LITERAL = Symbol("not a literal");

function literal(e: Expr): unknown {
  switch (e.k) {
    case "lit": return e.v instanceof PyFloat ? e.v.v : e.v;
    case "unary": {
      const v = e.op === "-" ? literal(e.v) : NOT_LITERAL;
      return typeof v === "number" ? -v : NOT_LITERAL;
    }
    case "list": {
      const items = e.items.map(literal);
      return items.includes(NOT_LITERAL) ? NOT_LITERAL : items;
    }
    case "dict": {
      const out = dict<unknown>();
      for (const [k, v] of e.entries) {
        const key = literal(k);
        const value = literal(v);
        if (key === NOT_LITERAL || value === NOT_LITERAL) return NOT_LITERAL;
        out[String(key)] = value;
      }
      return out;
    }
    default:
      return NOT_LITERAL;
  }
}
