import { tokens, type Token } from "./lexer.js";
import { fail, PyFloat } from "./values.js";

export type Expr =
  | { k: "lit"; v: unknown }
  | { k: "name"; n: string }
  | { k: "list"; items: Expr[] }
  | { k: "dict"; entries: [Expr, Expr][] }
  | { k: "attr"; obj: Expr; name: string }
  | { k: "index"; obj: Expr; index: Expr }
  | { k: "call"; fn: Expr; args: Expr[]; kwargs: [string, Expr][] }
  | { k: "filter"; value: Expr; name: string; args: Expr[]; kwargs: [string, Expr][] }
  | { k: "test"; value: Expr; name: string; args: Expr[]; negate: boolean }
  | { k: "unary"; op: string; v: Expr }
  | { k: "bin"; op: string; a: Expr; b: Expr }
  | { k: "cond"; then: Expr; test: Expr; else: Expr | undefined };

export type Node =
  | { k: "text"; t: string }
  | { k: "out"; e: Expr }
  | { k: "if"; branches: [Expr, Node[]][]; else: Node[] | undefined }
  | { k: "for"; targets: string[]; iter: Expr; filter: Expr | undefined; body: Node[]; else: Node[] | undefined }
  | { k: "set"; target: string; attr: string | undefined; value: Expr }
  | { k: "do"; e: Expr }
  | { k: "break" }
  | { k: "continue" };

const COMPARE = new Set(["==", "!=", "<", ">", "<=", ">="]);

/** A Jinja expression parser with Jinja's precedence: if-else, or, and, not, comparisons, + -, ~, * / // %, **, unary, filters and postfix. */
export class ExprParser {
  private pos = 0;
  constructor(private readonly toks: Token[]) {}

  done(): boolean {
    return this.pos >= this.toks.length;
  }

  peek(text?: string): Token | undefined {
    const t = this.toks[this.pos];
    return text === undefined || (t && (t.kind === "op" || t.kind === "name") && t.text === text) ? t : undefined;
  }

  take(text: string): boolean {
    if (!this.peek(text)) return false;
    this.pos++;
    return true;
  }

  expect(text: string): void {
    if (!this.take(text)) fail("TemplateSyntaxError", this.done() ? `unexpected end of template, expected '${text}'.` : `expected token '${text}', got '${this.toks[this.pos]!.text}'`);
  }

  name(): string {
    const t = this.toks[this.pos++];
    if (t?.kind !== "name") fail("TemplateSyntaxError", t ? `expected name, got '${t.text}'` : "unexpected end of template, expected name.");
    return t!.text;
  }

  expression(): Expr {
    const then = this.or();
    if (this.take("if")) {
      const test = this.or();
      const otherwise = this.take("else") ? this.expression() : undefined;
      return { k: "cond", then, test, else: otherwise };
    }
    return then;
  }

  /** An expression without a trailing `if … else` (the iterable of a `for`, which may have its own `if`). */
  orExpr(): Expr {
    return this.or();
  }

  private or(): Expr {
    let a = this.and();
    while (this.take("or")) a = { k: "bin", op: "or", a, b: this.and() };
    return a;
  }

  private and(): Expr {
    let a = this.not();
    while (this.take("and")) a = { k: "bin", op: "and", a, b: this.not() };
    return a;
  }

  private not(): Expr {
    if (this.take("not")) return { k: "unary", op: "not", v: this.not() };
    return this.compare();
  }

  private compare(): Expr {
    let a = this.add();
    for (;;) {
      const t = this.peek();
      if (t?.kind === "op" && COMPARE.has(t.text)) {
        this.pos++;
        a = { k: "bin", op: t.text, a, b: this.add() };
      } else if (this.take("in")) a = { k: "bin", op: "in", a, b: this.add() };
      else if (this.peek("not") && this.toks[this.pos + 1]?.text === "in") {
        this.pos += 2;
        a = { k: "bin", op: "not in", a, b: this.add() };
      } else if (this.take("is")) {
        const negate = this.take("not");
        const name = this.name();
        const args: Expr[] = [];
        if (this.take("(")) args.push(...this.args().args);
        else if (!this.done() && !this.peek("and") && !this.peek("or") && !this.peek("else") && !this.peek(")") && !this.peek(",") && !this.peek("if") && !this.peek("]") && !this.peek("}")) args.push(this.add());
        a = { k: "test", value: a, name, args, negate };
      } else return a;
    }
  }

  private add(): Expr {
    let a = this.concat();
    for (;;) {
      if (this.take("+")) a = { k: "bin", op: "+", a, b: this.concat() };
      else if (this.take("-")) a = { k: "bin", op: "-", a, b: this.concat() };
      else return a;
    }
  }

  private concat(): Expr {
    let a = this.mul();
    while (this.take("~")) a = { k: "bin", op: "~", a, b: this.mul() };
    return a;
  }

  private mul(): Expr {
    let a = this.pow();
    for (;;) {
      const op = ["*", "/", "//", "%"].find((o) => this.peek(o));
      if (!op) return a;
      this.pos++;
      a = { k: "bin", op, a, b: this.pow() };
    }
  }

  private pow(): Expr {
    let a = this.unary();
    while (this.take("**")) a = { k: "bin", op: "**", a, b: this.unary() };
    return a;
  }

  private unary(): Expr {
    if (this.take("-")) return this.filters({ k: "unary", op: "-", v: this.unary() });
    if (this.take("+")) return this.filters(this.unary());
    return this.filters(this.postfix(this.primary()));
  }

  private filters(value: Expr): Expr {
    let v = value;
    while (this.take("|")) {
      const name = this.name();
      const { args, kwargs } = this.take("(") ? this.args() : { args: [], kwargs: [] };
      v = { k: "filter", value: v, name, args, kwargs };
    }
    return v;
  }

  /** Arguments after "(" up to ")", positional then keyword. */
  args(): { args: Expr[]; kwargs: [string, Expr][] } {
    const args: Expr[] = [];
    const kwargs: [string, Expr][] = [];
    while (!this.take(")")) {
      if (this.done()) fail("TemplateSyntaxError", "unexpected end of template, expected ')'.");
      const t = this.toks[this.pos];
      if (t?.kind === "name" && this.toks[this.pos + 1]?.text === "=" && this.toks[this.pos + 1]?.kind === "op") {
        this.pos += 2;
        kwargs.push([t.text, this.expression()]);
      } else args.push(this.expression());
      if (!this.peek(")")) this.expect(",");
    }
    return { args, kwargs };
  }

  private postfix(base: Expr): Expr {
    let e = base;
    for (;;) {
      if (this.take(".")) {
        const t = this.toks[this.pos++];
        if (!t || (t.kind !== "name" && t.kind !== "num")) fail("TemplateSyntaxError", "expected name after '.'");
        e = { k: "attr", obj: e, name: t!.text };
      } else if (this.take("[")) {
        const index = this.expression();
        this.expect("]");
        e = { k: "index", obj: e, index };
      } else if (this.take("(")) {
        const { args, kwargs } = this.args();
        e = { k: "call", fn: e, args, kwargs };
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.toks[this.pos++];
    if (!t) return fail("TemplateSyntaxError", "unexpected end of template, expected an expression.");
    if (t.kind === "num") return { k: "lit", v: t.float ? new PyFloat(Number(t.text)) : Number(t.text) };
    if (t.kind === "str") {
      let s = t.text;
      while (this.toks[this.pos]?.kind === "str") s += this.toks[this.pos++]!.text;
      return { k: "lit", v: s };
    }
    if (t.kind === "name") {
      if (t.text === "true" || t.text === "True") return { k: "lit", v: true };
      if (t.text === "false" || t.text === "False") return { k: "lit", v: false };
      if (t.text === "none" || t.text === "None") return { k: "lit", v: null };
      return { k: "name", n: t.text };
    }
    if (t.text === "(") {
      const e = this.expression();
      if (this.take(",")) {
        const items = [e];
        while (!this.take(")")) {
          items.push(this.expression());
          if (!this.peek(")")) this.expect(",");
        }
        return { k: "list", items };
      }
      this.expect(")");
      return e;
    }
    if (t.text === "[") {
      const items: Expr[] = [];
      while (!this.take("]")) {
        items.push(this.expression());
        if (!this.peek("]")) this.expect(",");
      }
      return { k: "list", items };
    }
    if (t.text === "{") {
      const entries: [Expr, Expr][] = [];
      while (!this.take("}")) {
        const key = this.expression();
        this.expect(":");
        entries.push([key, this.expression()]);
        if (!this.peek("}")) this.expect(",");
      }
      return { k: "dict", entries };
    }
    return fail("TemplateSyntaxError", `unexpected '${t.text}'`);
  }
}

export function parseExpression(source: string): Expr {
  const p = new ExprParser(tokens(source));
  const e = p.expression();
  if (!p.done()) fail("TemplateSyntaxError", `expected token 'end of print statement', got '${p.peek()!.text}'`);
  return e;
}
