import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The imports the folder-door rule reports when `code` sits at `filePath`. */
async function around(code: string, filePath: string): Promise<string[]> {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "local/folder-doors").map((m) => m.message.split('"')[1]!);
}

describe("the folder-door lint rule", () => {
  it("lets a file import its neighbours, its parent's files and a folder's index.ts", async () => {
    const code = [
      'import { a } from "./neighbour.js";',
      'import type { B } from "../tool.js";',
      'import { c } from "../../ha/index.js";',
      'import { d } from "../grounding/index.js";',
      'import { e } from "../../../test/support/program.js";',
      'import { f } from "node:path";',
    ].join("\n");
    expect(await around(code, "src/tools/agent/example.ts")).toEqual([]);
  });

  it("reports every kind of import that goes around a door, type-only ones too", async () => {
    const code = [
      'import { a } from "../sessions/wire.js";',
      'import type { B } from "../../ha/types.js";',
      'export { c } from "../../agent/runtime.js";',
      'export type * from "../../models/fakes/gemini/index.js";',
      'const d = await import("../../simulator/commands/command.js");',
      'type E = import("../../indexer/graph.js").Graph;',
    ].join("\n");
    expect(await around(code, "src/tools/agent/example.ts")).toEqual([
      "../sessions/wire.js",
      "../../ha/types.js",
      "../../agent/runtime.js",
      "../../models/fakes/gemini/index.js",
      "../../simulator/commands/command.js",
      "../../indexer/graph.js",
    ]);
  });

  it("treats a subfolder's index.ts as a door only inside its parent, in tests as in product code", async () => {
    const code = 'import { createCallServiceTool } from "../tools/actions/index.js";';
    expect(await around(code, "src/agent/example.ts")).toEqual(["../tools/actions/index.js"]);
    expect(await around(code, "src/agent/example.test.ts")).toEqual(["../tools/actions/index.js"]);
    expect(await around(code, "test/agent/example.test.ts")).toEqual([]);
  });

  it("says which door to use", async () => {
    const [result] = await new ESLint().lintText('export type { HaState } from "../ha/types.js";', { filePath: "src/indexer/example.ts" });
    expect(result!.messages.find((m) => m.ruleId === "local/folder-doors")?.message).toContain("import it from src/ha/index.ts");
  });

  it("keeps each workspace package's doors inside its own src/", async () => {
    const code = ['import { a } from "./automations/engine.js";', 'import { b } from "./automations/index.js";'].join("\n");
    expect(await around(code, "packages/ha-simulator/src/example.ts")).toEqual(["./automations/engine.js"]);
  });
});
