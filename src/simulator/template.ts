import type { HassState } from "../ha/index.js";

/**
 * A small Jinja subset for `render_template`: literal text and `{{ … }}`
 * expressions with numbers, strings, arithmetic, comparisons, and/or/not,
 * `states()`, `state_attr()`, `is_state()`, `is_state_attr()`,
 * `has_value()`, `states.domain.object_id(.state)` and the filters `float`,
 * `int`, `round`, `default`, `lower`, `upper`, `title`, `string`. Anything else is a
 * `TemplateError` whose message says what is not supported.
 */
export class TemplateError extends Error {}

export interface RenderResult {
  result: unknown;
  entities: string[];
}

type Lookup = (entityId: string) => HassState | undefined;
type Value = unknown;

export function renderTemplate(template: string, lookup: Lookup, variables: Record<string, unknown> = {}): RenderResult {
  if (/\{%|\{#/.test(template)) throw new TemplateError("TemplateSyntaxError: statements ({% %}) and comments are not supported by the simulator");
  const entities = new Set<string>();
  const ctx = { lookup, variables, entities };
  let out = "";
  let rest = template;
  let only: Value = undefined;
  let pieces = 0;
  while (rest.length > 0) {
    const open = rest.indexOf("{{");
    if (open < 0) {
      out += rest;
      pieces++;
      break;
    }
    if (open > 0) {
      out += rest.slice(0, open);
      pieces++;
    }
    const close = rest.indexOf("}}", open);
    if (close < 0) throw new TemplateError("TemplateSyntaxError: unexpected end of template, expected '}}'");
    const value = new Parser(rest.slice(open + 2, close), ctx).parseAll();
    only = value;
    pieces++;
    out += show(value);
    rest = rest.slice(close + 2);
  }
  // Like HA's parse_result: a lone expression keeps its type, and numeric text becomes a number.
  const result = pieces === 1 && only !== undefined && typeof only !== "string" ? only : native(out);
  return { result, entities: [...entities] };
}

function native(text: string): unknown {
  const t = text.trim();
  if (t !== "" && /^-?\d+(\.\d+)?$/.test(t) && !/^-?0\d/.test(t)) return Number(t);
  if (t === "True") return true;
  if (t === "False") return false;
  return text;
}

function show(v: Value): string {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null || v === undefined) return "None";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(==|!=|<=|>=|[-+*/%()<>,|.])|([A-Za-z_][A-Za-z0-9_]*))/y;

class Parser {
  private readonly tokens: { kind: "num" | "str" | "op" | "id"; text: string }[] = [];
  private pos = 0;

  constructor(
    source: string,
    private readonly ctx: { lookup: Lookup; variables: Record<string, unknown>; entities: Set<string> },
  ) {
    const text = source.trim();
    let at = 0;
    TOKEN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while (at < text.length && (m = TOKEN.exec(text))) {
      at = TOKEN.lastIndex;
      if (m[1] !== undefined) this.tokens.push({ kind: "num", text: m[1] });
      else if (m[2] !== undefined || m[3] !== undefined) this.tokens.push({ kind: "str", text: (m[2] ?? m[3])!.replace(/\\(.)/g, "$1") });
      else if (m[4] !== undefined) this.tokens.push({ kind: "op", text: m[4] });
      else if (m[5] !== undefined) this.tokens.push({ kind: "id", text: m[5] });
    }
    const left = text.slice(at).trim();
    if (left !== "") throw new TemplateError(`TemplateSyntaxError: unexpected '${left[0]}'`);
  }

  parseAll(): Value {
    const v = this.or();
    if (this.pos < this.tokens.length) throw new TemplateError(`TemplateSyntaxError: unexpected '${this.tokens[this.pos]!.text}'`);
    return v;
  }

  private peek(text: string): boolean {
    const t = this.tokens[this.pos];
    return t !== undefined && (t.kind === "op" || t.kind === "id") && t.text === text;
  }

  private expect(text: string): void {
    if (!this.peek(text)) throw new TemplateError(`TemplateSyntaxError: expected '${text}'`);
    this.pos++;
  }

  private or(): Value {
    let v = this.and();
    while (this.peek("or")) {
      this.pos++;
      const r = this.and();
      v = truthy(v) ? v : r;
    }
    return v;
  }

  private and(): Value {
    let v = this.not();
    while (this.peek("and")) {
      this.pos++;
      const r = this.not();
      v = truthy(v) ? r : v;
    }
    return v;
  }

  private not(): Value {
    if (this.peek("not")) {
      this.pos++;
      return !truthy(this.not());
    }
    return this.comparison();
  }

  private comparison(): Value {
    const left = this.additive();
    const op = this.tokens[this.pos];
    if (op?.kind === "op" && ["==", "!=", "<", ">", "<=", ">="].includes(op.text)) {
      this.pos++;
      const right = this.additive();
      switch (op.text) {
        case "==": return left === right;
        case "!=": return left !== right;
        case "<": return num(left) < num(right);
        case ">": return num(left) > num(right);
        case "<=": return num(left) <= num(right);
        default: return num(left) >= num(right);
      }
    }
    return left;
  }

  private additive(): Value {
    let v = this.multiplicative();
    while (this.peek("+") || this.peek("-")) {
      const op = this.tokens[this.pos++]!.text;
      const r = this.multiplicative();
      v = op === "+" ? (typeof v === "string" && typeof r === "string" ? v + r : num(v) + num(r)) : num(v) - num(r);
    }
    return v;
  }

  private multiplicative(): Value {
    let v = this.unary();
    while (this.peek("*") || this.peek("/") || this.peek("%")) {
      const op = this.tokens[this.pos++]!.text;
      const r = num(this.unary());
      if ((op === "/" || op === "%") && r === 0) throw new TemplateError("ZeroDivisionError: division by zero");
      v = op === "*" ? num(v) * r : op === "/" ? num(v) / r : num(v) % r;
    }
    return v;
  }

  private unary(): Value {
    if (this.peek("-")) {
      this.pos++;
      return -num(this.unary());
    }
    let v = this.primary();
    while (this.peek("|")) {
      this.pos++;
      const name = this.tokens[this.pos++];
      if (name?.kind !== "id") throw new TemplateError("TemplateSyntaxError: expected a filter name after '|'");
      const args = this.peek("(") ? this.args() : [];
      v = applyFilter(name.text, v, args);
    }
    return v;
  }

  private args(): Value[] {
    this.expect("(");
    const args: Value[] = [];
    while (!this.peek(")")) {
      args.push(this.or());
      if (!this.peek(")")) this.expect(",");
    }
    this.expect(")");
    return args;
  }

  private primary(): Value {
    const t = this.tokens[this.pos++];
    if (!t) throw new TemplateError("TemplateSyntaxError: unexpected end of expression");
    if (t.kind === "num") return Number(t.text);
    if (t.kind === "str") return t.text;
    if (t.kind === "op" && t.text === "(") {
      const v = this.or();
      this.expect(")");
      return v;
    }
    if (t.kind !== "id") throw new TemplateError(`TemplateSyntaxError: unexpected '${t.text}'`);
    if (t.text === "true" || t.text === "True") return true;
    if (t.text === "false" || t.text === "False") return false;
    if (t.text === "none" || t.text === "None") return null;
    if (t.text === "states" && this.peek(".")) return this.statesPath();
    if (this.peek("(")) return this.call(t.text, this.args());
    if (Object.hasOwn(this.ctx.variables, t.text)) return this.ctx.variables[t.text];
    throw new TemplateError(`UndefinedError: '${t.text}' is undefined`);
  }

  /** `states.light.kitchen` (the state object) or `states.light.kitchen.state`. */
  private statesPath(): Value {
    const parts: string[] = [];
    while (this.peek(".") && parts.length < 3) {
      this.pos++;
      const p = this.tokens[this.pos++];
      if (p?.kind !== "id") throw new TemplateError("TemplateSyntaxError: expected a name after '.'");
      parts.push(p.text);
    }
    const entityId = `${parts[0]}.${parts[1]}`;
    this.ctx.entities.add(entityId);
    const s = this.ctx.lookup(entityId);
    if (parts.length === 2) return s ?? null;
    if (!s) throw new TemplateError(`UndefinedError: 'None' has no attribute '${parts[2]}'`);
    if (parts[2] === "state") return s.state;
    if (parts[2] === "attributes") return s.attributes;
    if (parts[2] === "entity_id") return s.entity_id;
    throw new TemplateError(`UndefinedError: state object has no attribute '${parts[2]}'`);
  }

  private call(name: string, args: Value[]): Value {
    const id = String(args[0] ?? "");
    const s = () => {
      this.ctx.entities.add(id);
      return this.ctx.lookup(id);
    };
    switch (name) {
      case "states": return s()?.state ?? "unknown";
      case "state_attr": return attribute(s(), args[1]) ?? null;
      case "is_state": {
        const st = s()?.state;
        return Array.isArray(args[1]) ? args[1].includes(st) : st === args[1];
      }
      case "is_state_attr": return attribute(s(), args[1]) === args[2];
      case "has_value": {
        const st = s()?.state;
        return st !== undefined && st !== "unknown" && st !== "unavailable";
      }
      case "float": return applyFilter("float", args[0], args.slice(1));
      case "int": return applyFilter("int", args[0], args.slice(1));
      case "round": return applyFilter("round", args[0], args.slice(1));
      default: throw new TemplateError(`UndefinedError: '${name}' is undefined (the simulator supports states, state_attr, is_state, is_state_attr, has_value, float, int, round)`);
    }
  }
}

/** An attribute the state itself has (never one inherited from Object.prototype). */
function attribute(s: HassState | undefined, name: Value): Value {
  const key = String(name);
  return s && Object.hasOwn(s.attributes, key) ? s.attributes[key] : undefined;
}

function truthy(v: Value): boolean {
  return !(v === false || v === null || v === undefined || v === 0 || v === "");
}

function num(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new TemplateError(`TypeError: cannot use ${show(v)} as a number; use | float(default) to convert`);
  return n;
}

function applyFilter(name: string, v: Value, args: Value[]): Value {
  switch (name) {
    case "float":
    case "int": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
      if (!Number.isFinite(n)) {
        if (args.length > 0) return args[0];
        throw new TemplateError(`ValueError: Template error: ${name} got invalid input '${show(v)}' when rendering template and no default was specified`);
      }
      return name === "int" ? Math.trunc(n) : n;
    }
    case "round": {
      const digits = args.length > 0 ? num(args[0]) : 0;
      const f = 10 ** digits;
      return Math.round(num(v) * f) / f;
    }
    case "default": return v === undefined || v === null ? args[0] : v;
    case "lower": return show(v).toLowerCase();
    case "upper": return show(v).toUpperCase();
    case "title": return show(v).replace(/\b\w/g, (c) => c.toUpperCase());
    case "string": return show(v);
    default: throw new TemplateError(`TemplateAssertionError: No filter named '${name}' (the simulator supports float, int, round, default, lower, upper, title, string)`);
  }
}
