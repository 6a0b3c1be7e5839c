import { describe, expect, it } from "vitest";
import { alignRange, describeRange, periodEnd, periodStart } from "./periods.js";

const AMS = "Europe/Amsterdam";
const NOW = Date.parse("2026-10-28T14:30:00+01:00");
const at = { now: NOW, zone: AMS };
const t = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe("calendar periods, as Home Assistant's recorder counts them", () => {
  it("start at local midnight, weeks on Monday and months on the first, in Home Assistant's zone", () => {
    expect(periodStart("day", NOW, AMS)).toBe(t("2026-10-28T00:00:00+01:00"));
    expect(periodStart("week", NOW, AMS)).toBe(t("2026-10-26T00:00:00+01:00"));
    expect(periodStart("month", NOW, AMS)).toBe(t("2026-10-01T00:00:00+02:00"));
    expect(periodStart("hour", NOW, AMS)).toBe(t("2026-10-28T14:00:00+01:00"));
  });

  it("have a 25-hour day and a 169-hour week when the clocks go back", () => {
    const sunday = periodStart("day", t("2026-10-25T12:00:00+01:00"), AMS);
    expect(sunday).toBe(t("2026-10-25T00:00:00+02:00"));
    expect(periodEnd("day", sunday, AMS) - sunday).toBe(25 * HOUR);
    const week = periodStart("week", t("2026-10-25T12:00:00+01:00"), AMS);
    expect(week).toBe(t("2026-10-19T00:00:00+02:00"));
    expect(periodEnd("week", week, AMS) - week).toBe(169 * HOUR);
    // And a 23-hour day when they go forward.
    const spring = periodStart("day", t("2026-03-29T12:00:00+02:00"), AMS);
    expect(periodEnd("day", spring, AMS) - spring).toBe(23 * HOUR);
  });

  it("widen a range to whole periods, never past now", () => {
    expect(alignRange({ period: "week", range: { startMs: NOW - HOUR, endMs: NOW }, zone: AMS, now: NOW })).toEqual({ startMs: t("2026-10-26T00:00:00+01:00"), endMs: NOW });
    // An end at midnight closes the day before it.
    expect(alignRange({ period: "day", range: { startMs: t("2026-10-25T12:00:00+01:00"), endMs: t("2026-10-27T00:00:00+01:00") }, zone: AMS, now: NOW })).toEqual({
      startMs: t("2026-10-25T00:00:00+02:00"),
      endMs: t("2026-10-27T00:00:00+01:00"),
    });
    expect(alignRange({ period: "month", range: { startMs: t("2026-09-15T12:00:00+02:00"), endMs: t("2026-09-20T00:00:00+02:00") }, zone: AMS, now: NOW })).toEqual({
      startMs: t("2026-09-01T00:00:00+02:00"),
      endMs: t("2026-10-01T00:00:00+02:00"),
    });
  });
});

describe("naming a period for a person", () => {
  it("uses the words people use, and exact times otherwise", () => {
    expect(describeRange({ startMs: t("2026-10-28T00:00:00+01:00"), endMs: NOW }, at)).toBe("today");
    expect(describeRange({ startMs: t("2026-10-27T00:00:00+01:00"), endMs: t("2026-10-28T00:00:00+01:00") }, at)).toBe("yesterday");
    expect(describeRange({ startMs: t("2026-10-26T00:00:00+01:00"), endMs: NOW }, at)).toBe("this week");
    expect(describeRange({ startMs: t("2026-10-19T00:00:00+02:00"), endMs: t("2026-10-26T00:00:00+01:00") }, at)).toBe("last week");
    expect(describeRange({ startMs: t("2026-10-01T00:00:00+02:00"), endMs: NOW }, at)).toBe("this month");
    expect(describeRange({ startMs: t("2026-10-25T00:00:00+02:00"), endMs: t("2026-10-26T00:00:00+01:00") }, at)).toBe("on 2026-10-25");
    expect(describeRange({ startMs: t("2026-10-21T14:30:00+02:00"), endMs: NOW }, at)).toBe("from 2026-10-21 14:30 CEST (7 days ago) to now");
    expect(describeRange({ startMs: NOW - 90 * 60_000, endMs: NOW }, at)).toBe("from 13:00 CET to now");
  });
});
