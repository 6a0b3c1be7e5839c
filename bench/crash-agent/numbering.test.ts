import { describe, expect, it } from "vitest";
import { TURNS_PER_RUN, createActionBook, turnNumber, turnNumberFor } from "./numbering.js";

describe("the agent crash test's turn numbers", () => {
  it("never give two runs the same number, even when a run sends hundreds of turns", () => {
    const seen = new Set<number>();
    for (let run = 0; run < 5; run++) for (let k = 0; k < 500; k++) seen.add(turnNumberFor(run, k));
    expect(seen.size).toBe(5 * 500);
  });

  it("refuses a turn beyond what a run may send instead of colliding with the next run", () => {
    expect(turnNumberFor(3, TURNS_PER_RUN - 1)).toBeLessThan(turnNumberFor(4, 0));
    expect(() => turnNumberFor(3, TURNS_PER_RUN)).toThrow(/collide/);
  });

  it("reads the number back from the message", () => {
    expect(turnNumber(`crash turn ${turnNumberFor(51, 100)}`)).toBe(5_100_100);
    expect(turnNumber("hello")).toBeUndefined();
  });
});

describe("the action book", () => {
  const lights = ["light.a", "light.b", "light.c"];

  it("gives distinct turns distinct actions, whatever their numbers", () => {
    const book = createActionBook(lights);
    const keys = new Set([5200, 5_200_000, 10, 7, 99_999_999, 3].map((n) => book.keyOf(book.actionOf(n))));
    expect(keys.size).toBe(6);
  });

  it("gives one turn the same action every time, and maps the action back to it", () => {
    const book = createActionBook(lights);
    const first = book.actionOf(42);
    book.actionOf(43);
    expect(book.actionOf(42)).toEqual(first);
    expect(book.turnOf(book.keyOf(first))).toBe(42);
    expect(book.turnOf("light.z 1")).toBeUndefined();
  });

  it("says so when the house has too few lights for distinct actions", () => {
    const book = createActionBook(["light.only"]);
    for (let n = 0; n < 254; n++) book.actionOf(n);
    expect(() => book.actionOf(254)).toThrow(/distinct action/);
  });
});
