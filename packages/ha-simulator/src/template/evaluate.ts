import { getAttr, iterate } from "./access.js";
import type { Env } from "./env.js";
import { applyFilter, applyTest } from "./filters.js";
import { callGlobal, GLOBALS } from "./functions.js";
import { callMethod } from "./methods.js";
import type { Expr, Node } from "./parser.js";
import {
  ALL_STATES, DateTime, equals, fail, isFloat, isPlainObject, Namespace, numberOf, PyFloat, str, TimeDelta, truthy, typeName, Undef,
} from "./values.js";

class LoopSignal {
  constructor(readonly kind: "break" | "continue") {}
}

export function checkDeadline(env: Env): void {
  if (env.deadline !== undefined && performance.now() > env.deadline) throw new TimeoutSignal();
}

/** The rendering ran out of time (HA: "Exceeded maximum execution time"). */
export class TimeoutSignal extends Error {}

export function renderNodes(nodes: Node[], env: Env, out: { parts: string[]; values: unknown[] }): void {
  for (const node of nodes) {
    checkDeadline(env);
    switch (node.k) {
      case "text":
        out.parts.push(node.t);
        break;
      case "out": {
        const v = evaluate(node.e, env);
        if (v instanceof Undef) undefinedOutput(v, env);
        out.parts.push(str(v));
        out.values.push(v);
        break;
      }
      case "if": {
        const branch = node.branches.find(([test]) => truthy(evaluate(test, env)));
        const body = branch ? branch[1] : node.else;
        if (body) renderNodes(body, env, out);
        break;
      }
      case "for":
        renderFor(node, env, out);
        break;
      case "set": {
        const value = evaluate(node.value, env);
        if (node.attr === undefined) env.scopes[env.scopes.length - 1]!.set(node.target, value);
        else {
          const ns = resolveName(node.target, env);
          if (!(ns instanceof Namespace)) fail("TemplateRuntimeError", "cannot assign attribute on non-namespace object");
          (ns as Namespace).fields.set(node.attr, value);
        }
        break;
      }
      case "do":
        evaluate(node.e, env);
        break;
      case "break":
      case "continue":
        throw new LoopSignal(node.k);
    }
  }
}

function undefinedOutput(v: Undef, env: Env): void {
  if (env.strict) fail("UndefinedError", v.hint);
  env.warn(v.hint);
}

function renderFor(node: Extract<Node, { k: "for" }>, env: Env, out: { parts: string[]; values: unknown[] }): void {
  let items = iterate(evaluate(node.iter, env), env);
  const scope = new Map<string, unknown>();
  env.scopes.push(scope);
  try {
    const bind = (item: unknown) => {
      if (node.targets.length === 1) scope.set(node.targets[0]!, item);
      else node.targets.forEach((t, i) => scope.set(t, Array.isArray(item) ? item[i] : new Undef(`'${t}' is undefined`)));
    };
    if (node.filter) {
      items = items.filter((item) => {
        bind(item);
        return truthy(evaluate(node.filter!, env));
      });
    }
    if (items.length === 0 && node.else) renderNodes(node.else, env, out);
    for (let i = 0; i < items.length; i++) {
      bind(items[i]);
      scope.set("loop", { index: i + 1, index0: i, first: i === 0, last: i === items.length - 1, length: items.length, revindex: items.length - i, revindex0: items.length - i - 1 });
      try {
        renderNodes(node.body, env, out);
      } catch (err) {
        if (!(err instanceof LoopSignal)) throw err;
        if (err.kind === "break") break;
      }
    }
  } finally {
    env.scopes.pop();
  }
}

function resolveName(name: string, env: Env): unknown {
  for (let i = env.scopes.length - 1; i >= 0; i--) if (env.scopes[i]!.has(name)) return env.scopes[i]!.get(name);
  if (name === "states") return ALL_STATES;
  if (GLOBALS.has(name)) return { fn: name };
  return new Undef(`'${name}' is undefined`);
}

export function evaluate(e: Expr, env: Env): unknown {
  switch (e.k) {
    case "lit": return e.v;
    case "name": return resolveName(e.n, env);
    case "list": return e.items.map((x) => evaluate(x, env));
    case "dict": return Object.fromEntries(e.entries.map(([k, v]) => [str(evaluate(k, env)), evaluate(v, env)]));
    case "attr": return getAttr(evaluate(e.obj, env), e.name, env);
    case "index": return getItem(evaluate(e.obj, env), evaluate(e.index, env), env);
    case "call": return call(e, env);
    case "filter": return applyFilter(e.name, evaluate(e.value, env), e.args.map((a) => evaluate(a, env)), Object.fromEntries(e.kwargs.map(([k, v]) => [k, evaluate(v, env)])), env);
    case "test": {
      const r = applyTest(e.name, evaluate(e.value, env), e.args.map((a) => evaluate(a, env)), env);
      return e.negate ? !r : r;
    }
    case "unary": {
      const v = evaluate(e.v, env);
      if (e.op === "not") return !truthy(v);
      const n = numberOf(v);
      if (n === undefined) return fail("TypeError", `bad operand type for unary -: '${typeName(v)}'`);
      return isFloat(v) ? new PyFloat(-n) : -n;
    }
    case "cond": return truthy(evaluate(e.test, env)) ? evaluate(e.then, env) : e.else ? evaluate(e.else, env) : new Undef("the inline if-expression evaluated to false and no else section was defined.");
    case "bin": return binary(e.op, e.a, e.b, env);
  }
}

function binary(op: string, ea: Expr, eb: Expr, env: Env): unknown {
  if (op === "and") {
    const a = evaluate(ea, env);
    return truthy(a) ? evaluate(eb, env) : a;
  }
  if (op === "or") {
    const a = evaluate(ea, env);
    return truthy(a) ? a : evaluate(eb, env);
  }
  const a = evaluate(ea, env);
  const b = evaluate(eb, env);
  for (const v of [a, b]) if (v instanceof Undef && (env.strict || op !== "==" && op !== "!=" && op !== "~")) fail("UndefinedError", v.hint);
  switch (op) {
    case "==": return equals(a, b);
    case "!=": return !equals(a, b);
    case "in": return contains(b, a, env);
    case "not in": return !contains(b, a, env);
    case "~": return str(a) + str(b);
    case "<": case ">": case "<=": case ">=": return compare(op, a, b);
  }
  return arithmetic(op, a, b);
}

function contains(container: unknown, item: unknown, env: Env): boolean {
  if (typeof container === "string") return typeof item === "string" ? container.includes(item) : fail("TypeError", `'in <string>' requires string as left operand, not ${typeName(item)}`);
  if (isPlainObject(container)) return Object.hasOwn(container, str(item));
  return iterate(container, env).some((x) => equals(x, item));
}

function compare(op: string, a: unknown, b: unknown): boolean {
  let x: number | string | undefined;
  let y: number | string | undefined;
  if (typeof a === "string" && typeof b === "string") [x, y] = [a, b];
  else if (a instanceof DateTime && b instanceof DateTime) [x, y] = [a.ms, b.ms];
  else [x, y] = [numberOf(a), numberOf(b)];
  if (x === undefined || y === undefined) return fail("TypeError", `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  return op === "<" ? x < y : op === ">" ? x > y : op === "<=" ? x <= y : x >= y;
}

/** Python arithmetic: ints stay ints except under `/`; strings and lists add and repeat; datetimes move by timedeltas. */
export function arithmetic(op: string, a: unknown, b: unknown): unknown {
  if (op === "+" && typeof a === "string" && typeof b === "string") return a + b;
  if (op === "+" && Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (op === "*" && typeof a === "string" && typeof b === "number") return a.repeat(Math.max(0, b));
  if (a instanceof DateTime && b instanceof TimeDelta && (op === "+" || op === "-")) return new DateTime(a.ms + (op === "+" ? b.ms : -b.ms), a.tz);
  if (a instanceof DateTime && b instanceof DateTime && op === "-") return new TimeDelta(a.ms - b.ms);
  if (a instanceof TimeDelta && b instanceof TimeDelta && (op === "+" || op === "-")) return new TimeDelta(op === "+" ? a.ms + b.ms : a.ms - b.ms);
  const x = numberOf(a);
  const y = numberOf(b);
  if (x === undefined || y === undefined) {
    if (op === "+" && typeof a === "string") return fail("TypeError", `can only concatenate str (not "${typeName(b)}") to str`);
    return fail("TypeError", `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  }
  const float = isFloat(a) || isFloat(b);
  const wrap = (n: number) => (float ? new PyFloat(n) : n);
  switch (op) {
    case "+": return wrap(x + y);
    case "-": return wrap(x - y);
    case "*": return wrap(x * y);
    case "**": return wrap(x ** y);
    case "/":
      if (y === 0) return fail("ZeroDivisionError", float ? "float division by zero" : "division by zero");
      return new PyFloat(x / y);
    case "//":
      if (y === 0) return fail("ZeroDivisionError", "integer division or modulo by zero");
      return wrap(Math.floor(x / y));
    case "%":
      if (y === 0) return fail("ZeroDivisionError", "integer modulo by zero");
      return wrap(x - Math.floor(x / y) * y);
  }
  return fail("TemplateSyntaxError", `unknown operator ${op}`);
}

function getItem(obj: unknown, key: unknown, env: Env): unknown {
  if (Array.isArray(obj) || typeof obj === "string") {
    const n = numberOf(key);
    if (n === undefined) return fail("TypeError", "list indices must be integers or slices, not " + typeName(key));
    const i = n < 0 ? obj.length + n : n;
    return i >= 0 && i < obj.length ? obj[i] : new Undef(`${typeName(obj)} object has no element ${n}`);
  }
  return getAttr(obj, str(key), env);
}

function call(e: Extract<Expr, { k: "call" }>, env: Env): unknown {
  const fn = evaluate(e.fn, env);
  const args = e.args.map((a) => evaluate(a, env));
  const kwargs = Object.fromEntries(e.kwargs.map(([k, v]) => [k, evaluate(v, env)]));
  if (fn === ALL_STATES) return callGlobal("states", args, kwargs, env);
  if (typeof fn === "object" && fn !== null && "fn" in fn) return callGlobal((fn as { fn: string }).fn, args, kwargs, env);
  if (typeof fn === "object" && fn !== null && "method" in fn) return callMethod(fn as { method: string; self: unknown }, args);
  if (fn instanceof Undef) return fail("UndefinedError", fn.hint);
  return fail("TypeError", `'${typeName(fn)}' object is not callable`);
}
