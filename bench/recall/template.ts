/**
 * Reads the sentence-template syntax of Home Assistant's `intents`
 * repository and draws concrete sentences from it:
 *   (a|b)   one of the alternatives
 *   [a]     optional; [a|b] one of them or nothing
 *   (a;b)   all parts, in any order
 *   {list} or {list:slot}   a value of a list (names, areas, numbers…)
 *   <rule>  an expansion rule, itself a template
 * Only what drawing sentences needs is parsed: no matching, no escapes.
 */
import { createRng } from "@ha-agent/ha-simulator";

export type Node =
  | { type: "text"; text: string }
  | { type: "seq"; items: Node[] }
  | { type: "alt"; options: Node[]; optional: boolean }
  | { type: "perm"; parts: Node[] }
  | { type: "list"; name: string; slot: string }
  | { type: "rule"; name: string };

/** Parses one template into a tree. Throws on unbalanced brackets. */
export function parseTemplate(template: string): Node {
  let pos = 0;
  const closers: Record<string, string> = { "(": ")", "[": "]" };

  // A group body: alternatives separated by "|", permutation parts by ";".
  function group(end: string | null): { alts: Node[]; perm: Node[] | null } {
    const alts: Node[] = [];
    const permParts: Node[] = [];
    let items: Node[] = [];
    let text = "";
    const flushText = () => {
      if (text) items.push({ type: "text", text });
      text = "";
    };
    const flushAlt = () => {
      flushText();
      alts.push({ type: "seq", items });
      items = [];
    };
    while (pos < template.length) {
      const c = template[pos]!;
      if (end !== null && c === end) {
        pos++;
        flushAlt();
        if (permParts.length) {
          permParts.push(alts.length === 1 ? alts[0]! : { type: "alt", options: alts.splice(0), optional: false });
          return { alts: [], perm: permParts };
        }
        return { alts, perm: null };
      }
      if (c === "|") {
        pos++;
        flushAlt();
        continue;
      }
      if (c === ";" && end !== null) {
        pos++;
        flushAlt();
        permParts.push(alts.length === 1 ? alts[0]! : { type: "alt", options: alts.splice(0), optional: false });
        alts.length = 0;
        continue;
      }
      if (c === "(" || c === "[") {
        pos++;
        flushText();
        const inner = group(closers[c]!);
        if (inner.perm) items.push({ type: "perm", parts: inner.perm });
        else items.push({ type: "alt", options: inner.alts, optional: c === "[" });
        continue;
      }
      if (c === "{" || c === "<") {
        const close = template.indexOf(c === "{" ? "}" : ">", pos);
        if (close < 0) throw new Error(`unclosed ${c} in ${template}`);
        flushText();
        const body = template.slice(pos + 1, close).trim();
        pos = close + 1;
        if (c === "<") items.push({ type: "rule", name: body });
        else {
          const [name, slot] = body.split(":");
          items.push({ type: "list", name: name!, slot: slot ?? name! });
        }
        continue;
      }
      text += c;
      pos++;
    }
    if (end !== null) throw new Error(`unclosed group in ${template}`);
    flushAlt();
    return { alts, perm: null };
  }

  const top = group(null);
  return top.alts.length === 1 ? top.alts[0]! : { type: "alt", options: top.alts, optional: false };
}

/** A seeded generator (the simulator's), so a corpus is the same every time it is drawn. */
export function seeded(seed: number): () => number {
  return createRng(seed).next;
}

export interface DrawContext {
  random: () => number;
  /** The template of an expansion rule, or undefined when the language has none of that name. */
  rule(name: string): Node | undefined;
  /** A value for a list slot: a name, an area, a number… Undefined makes the draw fail. */
  list(name: string, slot: string): string | undefined;
  /** Told of every rule the drawn sentence went through. */
  usedRule?(name: string): void;
}

/** Which list slots a template can use, rules followed. */
export function slotsOf(node: Node, ctx: Pick<DrawContext, "rule">, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  const visit = (n: Node) => {
    switch (n.type) {
      case "text":
        return;
      case "seq":
        return n.items.forEach(visit);
      case "alt":
        return n.options.forEach(visit);
      case "perm":
        return n.parts.forEach(visit);
      case "list":
        out.add(n.name);
        return;
      case "rule": {
        if (seen.has(n.name)) return;
        seen.add(n.name);
        const r = ctx.rule(n.name);
        if (r) visit(r);
        seen.delete(n.name);
      }
    }
  };
  visit(node);
  return out;
}

/**
 * Draws one sentence. Alternatives are chosen at random, optional parts kept
 * half the time; a branch that needs a list the caller cannot fill is
 * avoided when another branch can be taken. Returns undefined when no
 * branch works.
 */
export function draw(node: Node, ctx: DrawContext, depth = 0): string | undefined {
  if (depth > 40) return undefined;
  switch (node.type) {
    case "text":
      return node.text;
    case "seq": {
      let out = "";
      for (const item of node.items) {
        const s = draw(item, ctx, depth + 1);
        if (s === undefined) return undefined;
        out += s;
      }
      return out;
    }
    case "alt": {
      if (node.optional && ctx.random() < 0.5) return "";
      const order = shuffled(node.options, ctx.random);
      for (const option of order) {
        const s = draw(option, ctx, depth + 1);
        if (s !== undefined) return s;
      }
      return node.optional ? "" : undefined;
    }
    case "perm": {
      const parts: string[] = [];
      for (const p of shuffled(node.parts, ctx.random)) {
        const s = draw(p, ctx, depth + 1);
        if (s === undefined) return undefined;
        parts.push(s.trim());
      }
      return ` ${parts.filter(Boolean).join(" ")} `;
    }
    case "list":
      return ctx.list(node.name, node.slot);
    case "rule": {
      const r = ctx.rule(node.name);
      const s = r ? draw(r, ctx, depth + 1) : undefined;
      if (s !== undefined) ctx.usedRule?.(node.name);
      return s;
    }
  }
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Spaces as a person would type them: single, none at the ends, none before punctuation. */
export function tidy(sentence: string): string {
  return sentence.replace(/\s+/g, " ").replace(/\s+([?.!,])/g, "$1").trim();
}
