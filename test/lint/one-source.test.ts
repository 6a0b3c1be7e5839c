import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { shown, sourceFiles } from "./import-graph.js";

const root = join(import.meta.dirname, "..", "..");

describe("one source for each conversion", () => {
  it("turns zod schemas into JSON Schema in one product file, which MCP and the agent both use", () => {
    const converting = sourceFiles(join(root, "src"))
      .filter((file) => !file.endsWith(".test.ts") && readFileSync(file, "utf8").includes("toJSONSchema("))
      .map((file) => shown(root, file));
    expect(converting).toEqual(["src/tools/json-schema.ts"]);
  });
});
