import { describe, expect, it } from "vitest";
import { heldStates, summarizeHistory } from "./history-summary.js";

const AMS = "Europe/Amsterdam";
const t = (iso: string) => Date.parse(iso);
const s = (iso: string) => t(iso) / 1000;

describe("a period of history", () => {
  it("starts with the state held at the start, merges repeated states, and leaves the last open while it is current", () => {
    const range = { startMs: t("2026-10-27T00:00:00+01:00"), endMs: t("2026-10-27T12:00:00+01:00") };
    const rows = [
      { s: "off", lu: s("2026-10-27T00:00:00+01:00") },
      { s: "on", lu: s("2026-10-27T06:00:00+01:00") },
      // An attribute update: the same state again.
      { s: "on", lu: s("2026-10-27T06:10:00+01:00"), lc: s("2026-10-27T06:00:00+01:00") },
      { s: "off", lu: s("2026-10-27T09:00:00+01:00") },
    ];
    expect(heldStates(rows, range, true)).toEqual([
      { state: "off", startMs: range.startMs, endMs: t("2026-10-27T06:00:00+01:00") },
      { state: "on", startMs: t("2026-10-27T06:00:00+01:00"), endMs: t("2026-10-27T09:00:00+01:00") },
      { state: "off", startMs: t("2026-10-27T09:00:00+01:00"), endMs: null },
    ]);
    expect(heldStates(rows, range, false).at(-1)!.endMs).toBe(range.endMs);
  });

  it("weighs a number's mean by how long each value was held, and leaves gaps out of it", () => {
    const range = { startMs: t("2026-10-27T00:00:00+01:00"), endMs: t("2026-10-27T04:00:00+01:00") };
    const rows = [
      { s: "10", lu: s("2026-10-27T00:00:00+01:00") },
      { s: "unavailable", lu: s("2026-10-27T01:00:00+01:00") },
      { s: "20", lu: s("2026-10-27T02:00:00+01:00") },
    ];
    const e = summarizeHistory({ entityId: "sensor.x", name: "X", unit: "W", rows, range, toNow: false, zone: AMS });
    // 10 for an hour, nothing for an hour, 20 for two hours.
    expect(e.numeric).toMatchObject({ min: 10, max: 20, mean: 16.667, first: 10, last: 20 });
    // Quarter-hour buckets; the hour without a value has none.
    expect(e.numeric!.buckets.map((b) => b.mean)).toEqual([...Array<number>(4).fill(10), ...Array<number>(8).fill(20)]);
    expect(e.timeIn).toEqual([
      { state: "20", ms: 2 * 3_600_000 },
      { state: "10", ms: 3_600_000 },
      { state: "unavailable", ms: 3_600_000 },
    ]);
    expect(e.changeCount).toBe(2);
  });

  it("cuts buckets on the local clock from each midnight, the 25-hour Sunday included", () => {
    const range = { startMs: t("2026-10-24T00:00:00+02:00"), endMs: t("2026-10-27T00:00:00+01:00") };
    const e = summarizeHistory({ entityId: "sensor.x", name: "X", unit: null, rows: [{ s: "1", lu: range.startMs / 1000 }], range, toNow: false, zone: AMS });
    // 73 hours are more than 24 buckets of 3 hours: 6-hour buckets, from each local midnight.
    const buckets = e.numeric!.buckets;
    const local = (ms: number) => new Date(ms).toLocaleString("en-GB", { timeZone: AMS, hour: "2-digit", minute: "2-digit" });
    expect(buckets.map((b) => local(b.startMs))).toEqual(Array<string[]>(3).fill(["00:00", "06:00", "12:00", "18:00"]).flat());
    // The hour the change added is in the bucket it happened in: Sunday 00:00–06:00 lasts 7 hours.
    const evening = buckets.find((b) => b.startMs === t("2026-10-25T18:00:00+01:00"))!;
    expect(evening.endMs - evening.startMs).toBe(6 * 3_600_000);
    const night = buckets.find((b) => b.startMs === t("2026-10-25T00:00:00+02:00"))!;
    expect(night.endMs).toBe(t("2026-10-25T06:00:00+01:00"));
    expect(night.endMs - night.startMs).toBe(7 * 3_600_000);
    expect(buckets.at(-1)!.endMs).toBe(range.endMs);
  });
});
