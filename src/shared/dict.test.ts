import { describe, expect, it } from "vitest";
import { dict, own } from "./dict.js";

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__"])];

describe("dict and own", () => {
  it("own sees only stored keys, never Object.prototype members", () => {
    const table: Record<string, string[]> = { lamp: ["light"] };
    for (const name of NAMES) expect(own(table, name), name).toBeUndefined();
    expect(own(table, "lamp")).toEqual(["light"]);
    expect(own(undefined, "lamp")).toBeUndefined();
  });

  it("dict stores every name as a plain key, __proto__ included, and serialises them all", () => {
    const d = dict<number>();
    NAMES.forEach((name, i) => (d[name] = i));
    expect(Object.keys(d)).toEqual(NAMES);
    expect(JSON.parse(JSON.stringify(d))).toEqual(Object.fromEntries(NAMES.map((n, i) => [n, i])));
    expect(Object.getPrototypeOf(d)).toBeNull();
  });

  it("dict copies the own entries of its argument", () => {
    const init = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, number>;
    const d = dict(init);
    expect(own(d, "__proto__")).toBe(1);
    expect(own(d, "a")).toBe(2);
  });
});
