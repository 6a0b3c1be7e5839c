import { describe, expect, it } from "vitest";
import { addLocalDays, fromLocal, lastLocalTime, localIso, localParts, startOfLocalDay, startOfLocalMonth, startOfLocalWeek } from "./local-time-calendar.js";

const AMS = "Europe/Amsterdam";

describe("local time", () => {
  it("finds local midnight, Monday and the first of the month in the house's zone", () => {
    const t = Date.UTC(2026, 10, 25, 11, 30); // Wednesday 12:30 in Amsterdam
    expect(startOfLocalDay(t, AMS)).toBe(Date.UTC(2026, 10, 24, 23));
    expect(startOfLocalWeek(t, AMS)).toBe(Date.UTC(2026, 10, 22, 23));
    expect(startOfLocalMonth(t, AMS)).toBe(Date.UTC(2026, 9, 31, 23));
    expect(localParts(t, AMS)).toEqual({ year: 2026, month: 11, day: 25, hour: 12, minute: 30, second: 0, weekday: 2 });
    expect(localIso(t + 5, AMS)).toBe("2026-11-25T12:30:00.005000+01:00");
    expect(lastLocalTime(t, AMS, 22, 14)).toBe(Date.UTC(2026, 10, 24, 21, 14));
  });

  it("has 23- and 25-hour days across daylight saving changes", () => {
    // Clocks went forward on 29 March 2026 and go back on 25 October 2026 in Amsterdam.
    expect(addLocalDays(Date.UTC(2026, 2, 29, 12), AMS, 1) - startOfLocalDay(Date.UTC(2026, 2, 29, 12), AMS)).toBe(23 * 3_600_000);
    expect(addLocalDays(Date.UTC(2026, 9, 25, 12), AMS, 1) - startOfLocalDay(Date.UTC(2026, 9, 25, 12), AMS)).toBe(25 * 3_600_000);
    expect(fromLocal(AMS, 2026, 7, 1, 0, 0)).toBe(Date.UTC(2026, 5, 30, 22));
  });
});
