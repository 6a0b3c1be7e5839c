import { describe, expect, it } from "vitest";
import { manualClock } from "./clock.js";
import { homeTimeZone, localStamp, localTime } from "./local-time.js";

const NOON_UTC = Date.UTC(2026, 6, 10, 12, 0);

describe("times as the home's people read them", () => {
  it("writes the home's own clock and zone, with the date only when it is another day there", () => {
    expect(localTime(NOON_UTC, NOON_UTC, "Europe/Amsterdam")).toBe("14:00 CEST");
    expect(localTime(NOON_UTC - 13 * 3_600_000, NOON_UTC, "Europe/Amsterdam")).toBe("01:00 CEST");
    expect(localTime(NOON_UTC - 15 * 3_600_000, NOON_UTC, "Europe/Amsterdam")).toBe("2026-07-09 23:00 CEST");
    expect(localStamp(NOON_UTC, "UTC")).toBe("2026-07-10 12:00 UTC");
  });

  it("reads Home Assistant's zone once, keeps it while HA cannot answer, and falls back to UTC before it ever did", async () => {
    const clock = manualClock(NOON_UTC);
    let reads = 0;
    let answer: () => Promise<{ time_zone?: string }> = async () => ({ time_zone: "Europe/Amsterdam" });
    const zone = homeTimeZone({ read: () => (reads++, answer()), clock });
    expect(await Promise.all([zone(), zone()])).toEqual(["Europe/Amsterdam", "Europe/Amsterdam"]);
    expect(reads).toBe(1);
    answer = () => Promise.reject(new Error("HA is restarting"));
    clock.advance(11 * 60_000);
    expect(await zone()).toBe("Europe/Amsterdam");
    const fresh = homeTimeZone({ read: () => Promise.reject(new Error("down")), clock });
    expect(await fresh()).toBe("UTC");
    const odd = homeTimeZone({ read: async () => ({ time_zone: "Mars/Olympus_Mons" }), clock });
    expect(await odd()).toBe("UTC");
  });
});
