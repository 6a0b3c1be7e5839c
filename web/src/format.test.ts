import { describe, expect, it } from "vitest";
import { HomeFormat } from "./format.js";

const EVENING = Date.UTC(2026, 11, 7, 17, 24);

describe("the page's one way to write dates, times and numbers", () => {
  it("writes a moment in Home Assistant's zone and locale, not the browser's", () => {
    expect(new HomeFormat({ timeZone: "Europe/Amsterdam", locale: "en-NL" }).moment(EVENING)).toBe("7 Dec 2026, 18:24");
    expect(new HomeFormat({ timeZone: "America/New_York", locale: "en-US" }).moment(EVENING)).toBe("Dec 7, 2026, 12:24 PM");
    expect(new HomeFormat({ timeZone: "Europe/Berlin", locale: "de-DE" }).moment(EVENING)).toBe("07.12.2026, 18:24");
  });

  it("writes a day of the usage table and chart in the same convention as moments", () => {
    const f = new HomeFormat({ timeZone: "Pacific/Kiritimati", locale: "en-NL" });
    // A day is HA's calendar day as the API names it: no zone moves it.
    expect(f.day("2026-12-07")).toBe("7 Dec 2026");
    expect(f.moment(EVENING).startsWith(f.day("2026-12-08"))).toBe(true);
    expect(f.dayShort("2026-11-09")).toBe("9 Nov");
    expect(f.dayOfNoon(Date.parse("2026-11-09T12:00:00Z") / 1000)).toBe("2026-11-09");
  });

  it("groups numbers as the locale does and counts with plurals", () => {
    expect(new HomeFormat({ locale: "en-US" }).count(3324, "token")).toBe("3,324 tokens");
    expect(new HomeFormat({ locale: "de-DE" }).count(1, "model call")).toBe("1 model call");
    expect(new HomeFormat({ locale: "de-DE" }).number(3324)).toBe("3.324");
  });

  it("falls back to English and UTC for a locale or zone Intl does not know", () => {
    const f = new HomeFormat({ timeZone: "Mars/Olympus", locale: "not a locale" });
    expect([f.locale, f.timeZone]).toEqual(["en", "UTC"]);
    expect(f.moment(EVENING)).toBe("Dec 7, 2026, 5:24 PM");
  });
});
