import { ESLint } from "eslint";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readImports, resolveImport, sourceFiles } from "./import-graph.js";

const root = join(import.meta.dirname, "..", "..");

/** The imports the packages-apart rule reports when `code` sits at `filePath`. */
async function reported(code: string, filePath: string): Promise<string[]> {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "local/packages-apart").map((m) => m.message.split('"')[1]!);
}

describe("the packages-apart lint rule", () => {
  it("reports every way src/ could reach a workspace package: by name or by path, static, dynamic or type-only", async () => {
    const code = [
      'import { startSimulator } from "@ha-agent/ha-simulator";',
      'import type { GeminiReply } from "@ha-agent/model-fakes";',
      'export * from "@ha-agent/model-fakes";',
      'const sim = await import("@ha-agent/ha-simulator");',
      'type T = import("@ha-agent/model-fakes").FakeGemini;',
      'import { x } from "../../packages/ha-simulator/src/index.js";',
    ].join("\n");
    expect(await reported(code, "src/agent/example.ts")).toEqual([
      "@ha-agent/ha-simulator",
      "@ha-agent/model-fakes",
      "@ha-agent/model-fakes",
      "@ha-agent/ha-simulator",
      "@ha-agent/model-fakes",
      "../../packages/ha-simulator/src/index.js",
    ]);
  });

  it("holds for the unit tests beside the code, and leaves test/ and the packages themselves free", async () => {
    const code = 'import { startFakeGemini } from "@ha-agent/model-fakes";';
    expect(await reported(code, "src/models/example.test.ts")).toEqual(["@ha-agent/model-fakes"]);
    expect(await reported(code, "test/models/example.test.ts")).toEqual([]);
    expect(await reported(code, "packages/ha-simulator/src/example.ts")).toEqual([]);
  });

  it("lets a name in a variable through: the demo's run-time load, which neither tsc nor the bundler follow", async () => {
    const code = 'const name = "@ha-agent/ha-simulator";\nconst sim = await import(name);';
    expect(await reported(code, "src/app.ts")).toEqual([]);
  });

  it("says why and what to do instead", async () => {
    const [result] = await new ESLint().lintText('import "@ha-agent/ha-simulator";', { filePath: "src/app.ts" });
    expect(result!.messages.find((m) => m.ruleId === "local/packages-apart")?.message).toMatch(/add-on image does not hold.*at run time by a name in a variable.*test\//);
  });

  it("holds through every chain of imports: no file of src/, unit tests and the test support they use included, reaches a package", () => {
    const importsOf = new Map<string, string[]>();
    /** What `file` names: a package name, or a file of the repository. */
    const named = (file: string): string[] => {
      let out = importsOf.get(file);
      if (!out) {
        out = readImports(readFileSync(file, "utf8"), file).flatMap((ref) => (ref.specifier.startsWith("@ha-agent/") ? [ref.specifier] : [resolveImport(file, ref.specifier) ?? []].flat()));
        importsOf.set(file, out);
      }
      return out;
    };
    /** How `start` reaches a package (the chain of files, then the package), or undefined. */
    const reach = (start: string): string[] | undefined => {
      const cameFrom = new Map<string, string>([[start, start]]);
      const queue = [start];
      for (let i = 0; i < queue.length; i++) {
        const file = queue[i]!;
        for (const next of named(file)) {
          if (next.startsWith("@ha-agent/") || relative(root, next).startsWith("packages/")) {
            const chain = [next.startsWith("@ha-agent/") ? next : relative(root, next)];
            for (let at = file; ; at = cameFrom.get(at)!) {
              chain.unshift(relative(root, at));
              if (at === start) return chain;
            }
          }
          if (!cameFrom.has(next)) {
            cameFrom.set(next, file);
            queue.push(next);
          }
        }
      }
      return undefined;
    };
    const reaching = sourceFiles(join(root, "src"))
      .map((file) => reach(file))
      .filter((chain) => chain !== undefined)
      .map((chain) => chain.join(" → "));
    expect(reaching).toEqual([]);
  });
});
