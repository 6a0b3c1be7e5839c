import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCycles, importGraph, readImports, shown, sourceFiles } from "./import-graph.js";

const root = join(import.meta.dirname, "..", "..");

describe("the import graph of src", () => {
  it("has no cycles, counting type-only and dynamic imports", () => {
    const circles = findCycles(importGraph(sourceFiles(join(root, "src"))));
    expect(circles.map((circle) => circle.map((file) => shown(root, file)).join(" → "))).toEqual([]);
  });
});

describe("the cycle finder", () => {
  it("reads every kind of import a file can make", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "./b.js";',
      'export { c } from "./c.js";',
      'export type * from "./d.js";',
      'const e = await import("./e.js");',
      'type F = import("./f.js").F;',
    ].join("\n");
    expect(readImports(source)).toEqual([
      { specifier: "./a.js", typeOnly: false, dynamic: false },
      { specifier: "./b.js", typeOnly: true, dynamic: false },
      { specifier: "./c.js", typeOnly: false, dynamic: false },
      { specifier: "./d.js", typeOnly: true, dynamic: false },
      { specifier: "./e.js", typeOnly: false, dynamic: true },
      { specifier: "./f.js", typeOnly: true, dynamic: false },
    ]);
  });

  it("names each circle as a path back to where it starts", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", ["a"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(findCycles(graph)).toEqual([
      ["a", "b", "c", "a"],
      ["e", "e"],
    ]);
  });
});
