import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";

/** One `.dockerignore` line: a path pattern, possibly negated with `!`. */
interface Rule {
  negate: boolean;
  regex: RegExp;
}

/** Docker's pattern syntax: `*` and `?` stay within a path segment, `**` spans any number of them. */
function toRegex(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      out += ".*";
      i++;
      if (pattern[i + 1] === "/") i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

export function parseDockerignore(text: string): Rule[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const pattern = (negate ? line.slice(1) : line).replace(/^\/+|\/+$/g, "");
      return { negate, regex: toRegex(pattern) };
    });
}

/**
 * Whether Docker leaves `path` out of the build context: the last rule that
 * matches the path, or any directory above it, decides.
 */
export function isIgnored(rules: Rule[], path: string): boolean {
  const parts = path.split("/");
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
  let ignored = false;
  for (const rule of rules) if (prefixes.some((p) => rule.regex.test(p))) ignored = !rule.negate;
  return ignored;
}

/** The files of `root` that a `docker build` with this `.dockerignore` would send. */
export async function contextFiles(root: string, rules: Rule[]): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path);
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      if (entry.isDirectory()) await walk(path);
      else if (!isIgnored(rules, rel)) out.push(rel);
    }
  }
  await walk(root);
  return out.sort();
}

/** The `COPY` instructions of the Dockerfile's first (build) stage, as [sources, destination]. */
export function buildStageCopies(dockerfile: string): { sources: string[]; dest: string }[] {
  const lines = dockerfile.split("\n").map((l) => l.trim());
  const firstFrom = lines.findIndex((l) => /^FROM\s/i.test(l));
  const secondFrom = lines.findIndex((l, i) => i > firstFrom && /^FROM\s/i.test(l));
  return lines
    .slice(firstFrom, secondFrom === -1 ? undefined : secondFrom)
    .filter((l) => /^COPY\s/i.test(l) && !/--from=/.test(l))
    .map((l) => {
      const args = l.split(/\s+/).slice(1);
      return { sources: args.slice(0, -1), dest: args.at(-1)! };
    });
}

/** The `RUN` commands of the Dockerfile's first (build) stage, in order, as the shell gets them. */
export function buildStageRuns(dockerfile: string): string[] {
  const lines = dockerfile.split("\n").map((l) => l.trim());
  const firstFrom = lines.findIndex((l) => /^FROM\s/i.test(l));
  const secondFrom = lines.findIndex((l, i) => i > firstFrom && /^FROM\s/i.test(l));
  return lines
    .slice(firstFrom, secondFrom === -1 ? undefined : secondFrom)
    .filter((l) => /^RUN\s/i.test(l))
    .map((l) => l.replace(/^RUN\s+/i, ""));
}
