import { describe, expect, it } from "vitest";
import { importPackage } from "./import-package.js";

describe("importPackage", () => {
  it("loads a package by a name held in a variable", async () => {
    const name = "zod";
    const zod = await importPackage<{ z: { string(): unknown } }>(name, () => new Error("missing"));
    expect(typeof zod.z.string).toBe("function");
  });

  it("answers an absent package with the caller's own error, which says what to do", async () => {
    const failure = await importPackage("@ha-agent/not-in-this-copy", () => new Error("set HA_URL instead")).catch((err: unknown) => err);
    expect((failure as Error).message).toBe("set HA_URL instead");
  });
});
