import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

/** Packages reached from `file` through static, non-type imports: what Node loads at boot. */
function bootPackages(file: string, seen = new Set<string>(), packages = new Set<string>()): Set<string> {
  if (seen.has(file)) return packages;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)"/gms)) {
    const specifier = match[1]!;
    if (!specifier.startsWith(".")) {
      packages.add(specifier);
      continue;
    }
    const target = resolve(dirname(file), specifier.replace(/\.js$/, ".ts"));
    if (existsSync(target)) bootPackages(target, seen, packages);
  }
  return packages;
}

describe("what the program loads at boot", () => {
  it("leaves the Gemini SDK until a Gemini client is created", () => {
    const packages = bootPackages(join(root, "src", "main.ts"));
    expect(packages).toContain("@modelcontextprotocol/sdk/server/streamableHttp.js");
    expect([...packages].filter((p) => p.startsWith("@google/genai"))).toEqual([]);
  });
});
