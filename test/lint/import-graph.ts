import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** One import as the source writes it: `typeOnly` ones vanish when compiled, `dynamic` ones load on first call. */
export type ImportRef = { specifier: string; typeOnly: boolean; dynamic: boolean };

/** Every import of a TypeScript source: static, re-exports, `import type`, `import()` calls and `import("x").T` types. */
export function readImports(source: string, fileName = "file.ts"): ImportRef[] {
  const refs: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      refs.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      refs.push({ specifier: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return refs;
}

/** The source file a relative specifier names (`./x.js` is `./x.ts`), or undefined for a package or a missing file. */
export function resolveImport(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
  return existsSync(target) ? target : undefined;
}

/** Every .ts file under `folder`, tests included. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(folder, name))
    .sort();
}

/** file → the files it imports, every kind of import counted. */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = readImports(readFileSync(file, "utf8"), file).map((ref) => resolveImport(file, ref.specifier));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined))]);
  }
  return graph;
}

/**
 * The circles of a graph, one per strongly connected part (Tarjan), each as a path that
 * starts and ends at the same file, so a failure names what to cut.
 */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (graph.get(node) ?? []).includes(node)) parts.push(part);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return parts.map((part) => circleThrough(graph, new Set(part)));
}

/** The shortest path from the part's first file (in name order) back to itself, inside the part. */
function circleThrough(graph: Map<string, string[]>, part: Set<string>): string[] {
  const start = [...part].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of graph.get(node) ?? []) {
      if (!part.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** Files reached from `entry` through imports Node runs at load: static and not type-only. */
export function loadedAtBoot(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const ref of readImports(readFileSync(file, "utf8"), file)) {
      if (ref.typeOnly || ref.dynamic) continue;
      if (!ref.specifier.startsWith(".")) packages.add(ref.specifier);
      const target = resolveImport(file, ref.specifier);
      if (target) visit(target);
    }
  };
  visit(entry);
  return { files, packages };
}

/** A path as the repository names it, for messages. */
export const shown = (root: string, file: string): string => relative(root, file);
