import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/models/index.js";
import type { Simulator } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import type { Stack } from "../support/stack.js";
import { startTimeStack } from "./time-house.js";

const HOUR = 3600;

/** ha_agent_history against the time house over real sockets, on a clock standing at Wednesday 28 October 2026, 14:30 CET. */
describe("ha_agent_history", () => {
  let stack: Stack;
  let sim: Simulator;
  beforeAll(async () => {
    ({ stack, sim } = await startTimeStack());
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  async function history(args: Record<string, unknown>) {
    const reply = await callTool(stack.client, "ha_agent_history", args);
    if (reply.isError) throw new Error(reply.text);
    // The text block is the same JSON, and its story comes first.
    expect(reply.text.startsWith('{"narrative":')).toBe(true);
    return reply.value as {
      narrative: string;
      start: string;
      end: string;
      truncated: boolean;
      entities: { entity_id: string; source: string; time_in_state: { state: string; duration_s: number }[]; changes_total: number; changes: { state: string; start: string; end: string | null; duration_s: number }[]; numeric?: Record<string, unknown> & { buckets: unknown[] } }[];
    };
  }

  it("tells how long the hall light was on yesterday, to the second, with each change in order", async () => {
    const out = await history({ entity_ids: ["light.hall_light", "sensor.hall_temperature"], start: "yesterday", end: "today" });
    expect(out.start).toBe("2026-10-27T00:00:00+01:00");
    expect(out.end).toBe("2026-10-28T00:00:00+01:00");
    expect(out.narrative).toBe(
      [
        "History yesterday (2026-10-27 00:00 CET to 2026-10-28 00:00 CET):",
        "- Hall light (light.hall_light): off 20 h 48 min, on 3 h 12 min; changed 4 times; off at the end.",
        "- Hall temperature (sensor.hall_temperature): 19 °C to 22 °C, mean 20.5 °C; from 19 °C to 20 °C.",
      ].join("\n"),
    );
    const [light, temperature] = out.entities;
    expect(light!.time_in_state).toEqual([
      { state: "off", duration_s: 20 * HOUR + 48 * 60 },
      { state: "on", duration_s: 3 * HOUR + 12 * 60 },
    ]);
    expect(light!.changes_total).toBe(4);
    expect(light!.changes).toEqual([
      { state: "off", start: "2026-10-27T00:00:00+01:00", end: "2026-10-27T07:00:00+01:00", duration_s: 7 * HOUR },
      { state: "on", start: "2026-10-27T07:00:00+01:00", end: "2026-10-27T07:30:00+01:00", duration_s: 1800 },
      { state: "off", start: "2026-10-27T07:30:00+01:00", end: "2026-10-27T18:00:00+01:00", duration_s: 10.5 * HOUR },
      { state: "on", start: "2026-10-27T18:00:00+01:00", end: "2026-10-27T20:42:00+01:00", duration_s: 2 * HOUR + 42 * 60 },
      { state: "off", start: "2026-10-27T20:42:00+01:00", end: "2026-10-28T00:00:00+01:00", duration_s: 3 * HOUR + 18 * 60 },
    ]);
    // Time-weighted: six hours each of 19, 21, 22 and 20.
    expect(temperature!.numeric).toMatchObject({ unit: "°C", min: 19, max: 22, mean: 20.5, first: 19, last: 20 });
    expect(temperature!.numeric!.buckets).toHaveLength(24);
    expect(temperature!.numeric!.buckets[6]).toEqual({ start: "2026-10-27T06:00:00+01:00", end: "2026-10-27T07:00:00+01:00", min: 21, mean: 21, max: 21 });
  });

  it("reads today and -90m up to now, the current state open-ended", async () => {
    const today = await history({ entity_ids: ["light.hall_light"], start: "today" });
    expect(today.narrative).toBe(
      "History today (2026-10-28 00:00 CET to 2026-10-28 14:30 CET):\n- Hall light (light.hall_light): off 12 h 15 min, on 2 h 15 min; changed 3 times; now on since 13:00 CET.",
    );
    expect(today.entities[0]!.changes.at(-1)).toEqual({ state: "on", start: "2026-10-28T13:00:00+01:00", end: null, duration_s: 1.5 * HOUR });

    const recent = await history({ entity_ids: ["light.hall_light"], start: "-90m" });
    expect([recent.start, recent.end]).toEqual(["2026-10-28T13:00:00+01:00", "2026-10-28T14:30:00+01:00"]);
    expect(recent.entities[0]!.changes).toEqual([{ state: "on", start: "2026-10-28T13:00:00+01:00", end: null, duration_s: 1.5 * HOUR }]);
  });

  it("counts -7d as seven local days, across the night the clocks went back", async () => {
    const week = await history({ entity_ids: ["light.hall_light"], start: "-7d" });
    expect(week.start).toBe("2026-10-21T14:30:00+02:00");
    expect(week.narrative.split("\n")[0]).toBe("History from 2026-10-21 14:30 CEST (7 days ago) to now:");
    // 169 hours: the light was on 3 h 12 min yesterday and 2 h 15 min today.
    const on = week.entities[0]!.time_in_state.find((t) => t.state === "on")!;
    expect(on.duration_s).toBe(5 * HOUR + 27 * 60);
    expect(week.entities[0]!.time_in_state.reduce((s, t) => s + t.duration_s, 0)).toBe(169 * HOUR);
  });

  it("reads the entities of an area given as Home Assistant's target", async () => {
    const out = await history({ target: { area_id: "hall" }, start: "yesterday", end: "today" });
    expect(out.entities.map((e) => e.entity_id).sort()).toEqual(["light.hall_light", "sensor.hall_temperature"]);
  });

  it("cuts to max_tokens, oldest changes and buckets first, and says what it cut and how to get more", async () => {
    const full = await history({ entity_ids: ["light.hall_light", "sensor.hall_temperature"], start: "-7d" });
    expect(full.truncated).toBe(false);
    const cut = await history({ entity_ids: ["light.hall_light", "sensor.hall_temperature"], start: "-7d", max_tokens: 400 });
    expect(cut.truncated).toBe(true);
    expect(estimateTokens(JSON.stringify(cut))).toBeLessThanOrEqual(400);
    expect(cut.narrative).toMatch(/Cut to fit 400 tokens: .*\. For more, ask for a shorter period or fewer entities, or raise max_tokens\.$/);
    // The story of both entities is still whole: the cut takes lists, not totals.
    expect(cut.narrative).toContain("Hall light (light.hall_light):");
    expect(cut.narrative).toContain("Hall temperature (sensor.hall_temperature):");
    const light = cut.entities.find((e) => e.entity_id === "light.hall_light")!;
    expect(light.time_in_state).toEqual(full.entities[0]!.time_in_state);
    // What is kept of the changes is the most recent.
    if (light.changes.length) expect(light.changes.at(-1)).toEqual(full.entities[0]!.changes.at(-1));
    expect(light.changes.length).toBeLessThan(full.entities[0]!.changes.length);
  });

  it("reads a period past the recorder's ten days from long-term statistics, and says so", async () => {
    const out = await history({ entity_ids: ["sensor.outdoor_temperature", "light.hall_light"], start: "2026-10-11", end: "2026-10-13" });
    const [outdoor, light] = out.entities;
    expect(outdoor!.source).toBe("statistics");
    // 10 °C for 38 hours, then 14 °C for 10: hourly means weighted by their hours.
    expect(outdoor!.numeric).toMatchObject({ min: 10, max: 14, mean: 10.833, first: 10, last: 14 });
    expect(light!.source).toBe("history");
    expect(light!.changes).toEqual([]);
    expect(out.narrative).toContain("Outdoor temperature (sensor.outdoor_temperature) (long-term statistics, hourly): 10 °C to 14 °C, mean 10.8 °C");
    expect(out.narrative).toContain("Home Assistant keeps state history for 10 days by default (the recorder's purge_keep_days)");
    expect(out.narrative).toContain("Hall light (light.hall_light): nothing recorded in this period.");
    expect(out.narrative).toContain("Nothing recorded means the entity did not exist then, or the recorder leaves it out.");
  });

  it("refuses what it cannot read with the error vocabulary and what to send instead", async () => {
    const expectError = async (args: Record<string, unknown>, code: string, text?: string) => {
      const reply = await callTool(stack.client, "ha_agent_history", args);
      expect(reply.isError, reply.text).toBe(true);
      expect(reply.text.endsWith(`(${code})`), reply.text).toBe(true);
      if (text) expect(reply.text).toContain(text);
    };
    await expectError({ entity_ids: ["light.hall_light"], start: "last tuesday" }, "invalid_argument", '-90m", "-24h", "-7d", "today" or "yesterday"');
    await expectError({ entity_ids: ["light.hall"], start: "today" }, "unknown_entity", "Closest: light.hall_light");
    await expectError({ target: { area_id: "attic" }, start: "today" }, "unknown_target", 'area "attic"');
    await expectError({ start: "today" }, "invalid_argument", "Give entity_ids, a target, or both");
    await expectError({ entity_ids: ["light.hall_light"], start: "today", end: "yesterday" }, "invalid_argument", "must be before end");
  });
});
