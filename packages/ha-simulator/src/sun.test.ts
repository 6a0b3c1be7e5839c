import { describe, expect, it } from "vitest";
import { nextSunEvent, sunIsUp } from "./sun.js";

describe("the sun", () => {
  it("rises and sets in Amsterdam when almanacs say, within two minutes", () => {
    // 21 November 2026: sunrise 08:12, sunset 16:41 (CET).
    const rise = nextSunEvent(Date.UTC(2026, 10, 21, 0), "sunrise", 52.3731, 4.8922)!;
    const set = nextSunEvent(Date.UTC(2026, 10, 21, 0), "sunset", 52.3731, 4.8922)!;
    expect(Math.abs(rise - Date.UTC(2026, 10, 21, 7, 12))).toBeLessThan(120_000);
    expect(Math.abs(set - Date.UTC(2026, 10, 21, 15, 41))).toBeLessThan(120_000);
    expect(sunIsUp(Date.UTC(2026, 10, 21, 12), 52.3731, 4.8922)).toBe(true);
    expect(sunIsUp(Date.UTC(2026, 10, 21, 21, 14), 52.3731, 4.8922)).toBe(false);
  });
});
