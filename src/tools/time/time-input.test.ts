import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatZodError } from "../zod-errors.js";
import { parseTime, resolveRange, resolveTime, timeArgument, TIME_FORMS } from "./time-input.js";

const AMS = "Europe/Amsterdam";
/** Wednesday 28 October 2026, 14:30 CET: three days after the clocks went back. */
const NOW = Date.parse("2026-10-28T14:30:00+01:00");
const at = { now: NOW, zone: AMS };
const resolve = (text: string) => resolveTime(parseTime(text)!, at);

describe("reading a time", () => {
  it("takes ISO 8601 with an offset as that instant, and without one in Home Assistant's zone", () => {
    expect(resolve("2026-10-20T18:00:00+02:00")).toBe(Date.parse("2026-10-20T16:00:00Z"));
    expect(resolve("2026-10-20T16:00:00Z")).toBe(Date.parse("2026-10-20T16:00:00Z"));
    expect(resolve("2026-10-20T18:00")).toBe(Date.parse("2026-10-20T16:00:00Z"));
    expect(resolve("2026-10-20 18:00:30.250")).toBe(Date.parse("2026-10-20T16:00:30.250Z"));
    // A date alone is its local midnight, in summer time here…
    expect(resolve("2026-10-25")).toBe(Date.parse("2026-10-24T22:00:00Z"));
    // …and in winter time the day after the change.
    expect(resolve("2026-10-26")).toBe(Date.parse("2026-10-25T23:00:00Z"));
  });

  it("takes the forms people type: now, today, yesterday, -90m, -24h, -7d", () => {
    expect(resolve("now")).toBe(NOW);
    expect(resolve("Today")).toBe(Date.parse("2026-10-27T23:00:00Z"));
    expect(resolve("yesterday")).toBe(Date.parse("2026-10-26T23:00:00Z"));
    expect(resolve("-90m")).toBe(NOW - 90 * 60_000);
    expect(resolve("-24h")).toBe(NOW - 24 * 3_600_000);
    // Seven local days back is the same wall-clock time, 14:30 in summer time: 169 hours across the change.
    expect(resolve("-7d")).toBe(Date.parse("2026-10-21T14:30:00+02:00"));
    expect(NOW - resolve("-7d")).toBe(169 * 3_600_000);
  });

  it("refuses anything else with every accepted form", () => {
    for (const bad of ["last week", "2026-02-30", "2026-10-20T25:00", "-5x", "7d", "", "tomorrow"]) expect(parseTime(bad), bad).toBeUndefined();
    const parsed = z.object({ start: timeArgument() }).safeParse({ start: "last tuesday" });
    expect(parsed.success).toBe(false);
    const message = formatZodError(parsed.error!);
    expect(message).toContain('start: "last tuesday" is not a time this tool reads');
    expect(message).toContain(TIME_FORMS);
    for (const form of ["ISO 8601", "-90m", "-24h", "-7d", "today", "yesterday"]) expect(message).toContain(form);
  });
});

describe("a period", () => {
  it("ends now by default, and never later", () => {
    expect(resolveRange({ start: parseTime("today")!, ...at })).toEqual({ ok: true, range: { startMs: Date.parse("2026-10-27T23:00:00Z"), endMs: NOW } });
    expect(resolveRange({ start: parseTime("-1h")!, end: parseTime("2027-01-01")!, ...at })).toMatchObject({ ok: true, range: { endMs: NOW } });
  });

  it("refuses a start after its end, or in the future, saying what each resolved to", () => {
    const backwards = resolveRange({ start: parseTime("today")!, end: parseTime("yesterday")!, ...at });
    expect(backwards).toEqual({ ok: false, message: "start (2026-10-27T23:00:00.000Z) must be before end (2026-10-26T23:00:00.000Z)." });
    expect(resolveRange({ start: parseTime("2026-12-01")!, ...at })).toMatchObject({ ok: false, message: expect.stringContaining("not in the past") });
  });
});
