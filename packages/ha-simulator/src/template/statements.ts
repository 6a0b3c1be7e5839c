import { segments, tokens } from "./lexer.js";
import { ExprParser, parseExpression, type Expr, type Node } from "./parser.js";
import { fail } from "./values.js";

/** A whole template: text, output and the statements `if`, `for`, `set`, `do`, `break` and `continue`. */
export function parseTemplate(template: string): Node[] {
  const segs = segments(template);
  let i = 0;
  const block = (ends: string[]): { body: Node[]; end: string; parser: ExprParser | undefined } => {
    const body: Node[] = [];
    while (i < segs.length) {
      const seg = segs[i++]!;
      if (seg.kind === "text") body.push({ k: "text", t: seg.text });
      else if (seg.kind === "expr") body.push({ k: "out", e: parseExpression(seg.src) });
      else {
        const p = new ExprParser(tokens(seg.src));
        const tag = p.name();
        if (ends.includes(tag)) return { body, end: tag, parser: p };
        body.push(statement(tag, p));
      }
    }
    if (ends.length > 0) fail("TemplateSyntaxError", `Unexpected end of template. Jinja was looking for the following tags: ${ends.map((e) => `'${e}'`).join(" or ")}.`);
    return { body, end: "", parser: undefined };
  };
  const statement = (tag: string, p: ExprParser): Node => {
    switch (tag) {
      case "if": {
        const branches: [Expr, Node[]][] = [];
        let test = p.expression();
        let otherwise: Node[] | undefined;
        for (;;) {
          const r = block(["elif", "else", "endif"]);
          branches.push([test, r.body]);
          if (r.end === "elif") test = r.parser!.expression();
          else if (r.end === "else") {
            otherwise = block(["endif"]).body;
            break;
          } else break;
        }
        return { k: "if", branches, else: otherwise };
      }
      case "for": {
        const targets = [p.name()];
        while (p.take(",")) targets.push(p.name());
        p.expect("in");
        const iter = p.orExpr();
        const filter = p.take("if") ? p.expression() : undefined;
        const r = block(["else", "endfor"]);
        const otherwise = r.end === "else" ? block(["endfor"]).body : undefined;
        return { k: "for", targets, iter, filter, body: r.body, else: otherwise };
      }
      case "set": {
        const target = p.name();
        const attr = p.take(".") ? p.name() : undefined;
        p.expect("=");
        return { k: "set", target, attr, value: p.expression() };
      }
      case "do": return { k: "do", e: p.expression() };
      case "break": return { k: "break" };
      case "continue": return { k: "continue" };
      default: return fail("TemplateSyntaxError", `Encountered unknown tag '${tag}'.`);
    }
  };
  return block([]).body;
}
