import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The lint rule that keeps Object.prototype out of lookups keyed by user text or Home Assistant data. */
async function ruleHits(code: string, filePath: string): Promise<number> {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").length;
}

describe("the prototype-lookup lint rule", () => {
  it("flags `key in object` and Record<string, …> object literals where names are keys", async () => {
    const code = [
      "export const TABLE: Record<string, string[]> = { lamp: [\"light\"] };",
      "export const has = (o: object, key: string): boolean => key in o;",
      "export const fine = (o: object): boolean => \"lamp\" in o;",
      "export const map = new Map<string, string[]>();",
    ].join("\n");
    for (const path of ["src/indexer", "src/tools/grounding", "src/ha", "packages/ha-simulator/src"]) expect(await ruleHits(code, `${path}/example.ts`), path).toBe(2);
    expect(await ruleHits(code, "src/indexer/example.test.ts")).toBe(0);
  });
});
