import { describe, expect, it } from "vitest";
import { createPerPrincipalLimit } from "./per-principal-limit.js";

describe("a limit per principal", () => {
  it("refuses a principal at its limit without touching another, and takes it back as they are released", () => {
    const limit = createPerPrincipalLimit(2);
    const a1 = limit.tryEnter("a");
    const a2 = limit.tryEnter("a");
    expect(a1 && a2).toBeTruthy();
    expect(limit.tryEnter("a")).toBeUndefined();
    expect(limit.tryEnter("b")).toBeTruthy();
    a1!();
    expect(limit.count("a")).toBe(1);
    expect(limit.tryEnter("a")).toBeTruthy();
  });

  it("counts a release once, however often it is called", () => {
    const limit = createPerPrincipalLimit(1);
    const release = limit.tryEnter("a")!;
    release();
    release();
    expect(limit.count("a")).toBe(0);
    expect(limit.tryEnter("a")).toBeTruthy();
    expect(limit.tryEnter("a")).toBeUndefined();
  });
});
