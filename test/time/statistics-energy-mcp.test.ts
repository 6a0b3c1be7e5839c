import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import type { Stack } from "../support/stack.js";
import { LEGACY_PREFS, PREFS, startTimeStack, type timeHouse } from "./time-house.js";

type Rows = { statistic_id: string; unit: string | null; rows: Record<string, unknown>[] }[];

/** ha_agent_statistics and ha_agent_energy against the time house, on Wednesday 28 October 2026, 14:30 CET. */
describe("ha_agent_statistics and ha_agent_energy", () => {
  let stack: Stack;
  let sim: Simulator;
  let house: ReturnType<typeof timeHouse>;
  beforeAll(async () => {
    ({ stack, sim, house } = await startTimeStack());
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  async function call(name: string, args: Record<string, unknown>) {
    const reply = await callTool(stack.client, name, args);
    if (reply.isError) throw new Error(reply.text);
    expect(reply.text.startsWith('{"narrative":')).toBe(true);
    return reply.value as Record<string, unknown> & { narrative: string };
  }

  it("gives a row per local day, the 25-hour Sunday the clocks went back included, each meter in its own unit", async () => {
    const out = await call("ha_agent_statistics", { entity_ids: ["sensor.grid_import", "sensor.heat_pump_energy"], start: "2026-10-24", end: "2026-10-27", period: "day" });
    expect([out.period, out.start, out.end]).toEqual(["day", "2026-10-24T00:00:00+02:00", "2026-10-27T00:00:00+01:00"]);
    const [grid, pump] = out.statistics as Rows;
    expect(grid!.rows).toEqual([
      { start: "2026-10-24T00:00:00+02:00", end: "2026-10-25T00:00:00+02:00", change: 0 },
      { start: "2026-10-25T00:00:00+02:00", end: "2026-10-26T00:00:00+01:00", change: 15 },
      { start: "2026-10-26T00:00:00+01:00", end: "2026-10-27T00:00:00+01:00", change: 0 },
    ]);
    expect(pump!.unit).toBe("Wh");
    expect(pump!.rows.map((r) => r.change)).toEqual([0, 4000, 0]);
    expect(out.narrative).toBe(
      [
        "Statistics per day from 2026-10-24 00:00 CEST (4 days ago) to 2026-10-27 00:00 CET:",
        "- Grid import (sensor.grid_import): 15 kWh in all, most 2026-10-25 (15 kWh).",
        "- Heat pump energy (sensor.heat_pump_energy): 4000 Wh in all, most 2026-10-25 (4000 Wh).",
      ].join("\n"),
    );
  });

  it("counts weeks from Monday and months from the first, at local midnight", async () => {
    const week = await call("ha_agent_statistics", { statistic_ids: ["sensor.grid_import"], start: "2026-10-19", end: "2026-10-26", period: "week", types: ["change", "sum"] });
    expect((week.statistics as Rows)[0]!.rows).toEqual([{ start: "2026-10-19T00:00:00+02:00", end: "2026-10-26T00:00:00+01:00", change: 15, sum: 15 }]);
    expect(week.narrative.split("\n")[0]).toBe("Statistics per week last week (2026-10-19 00:00 CEST to 2026-10-26 00:00 CET):");
    const month = await call("ha_agent_statistics", { statistic_ids: ["sensor.grid_import"], start: "2026-10-15", period: "month" });
    expect(month.start).toBe("2026-10-01T00:00:00+02:00");
    expect((month.statistics as Rows)[0]!.rows).toEqual([{ start: "2026-10-01T00:00:00+02:00", end: "2026-11-01T00:00:00+01:00", change: 42.5 }]);
  });

  it("gives a measurement's hourly mean, min and max, and names what has no statistics", async () => {
    const out = await call("ha_agent_statistics", { entity_ids: ["sensor.hall_temperature", "light.hall_light"], start: "yesterday", end: "today", period: "hour" });
    const [temperature] = out.statistics as Rows;
    expect(temperature!.rows).toHaveLength(24);
    expect(temperature!.rows.map((r) => r.mean)).toEqual([...Array<number>(6).fill(19), ...Array<number>(6).fill(21), ...Array<number>(6).fill(22), ...Array<number>(6).fill(20)]);
    expect(temperature!.rows[0]).toEqual({ start: "2026-10-27T00:00:00+01:00", end: "2026-10-27T01:00:00+01:00", mean: 19, min: 19, max: 19 });
    expect(out.missing).toEqual(["light.hall_light"]);
    expect(out.narrative).toContain("- Hall temperature (sensor.hall_temperature): 19 °C to 22 °C, mean 20.5 °C.");
    expect(out.narrative).toContain("No long-term statistics for light.hall_light: Home Assistant keeps them only for sensors with a state class");
  });

  it("totals this week as the Energy dashboard does, a Wh meter in kWh", async () => {
    const out = await call("ha_agent_energy", { start: "today", period: "week" });
    expect(out).toEqual({
      narrative:
        "This week (2026-10-26 00:00 CET to 2026-10-28 14:30 CET) you used 27.5 kWh from the grid and exported 6.1 kWh; solar produced 7.4 kWh; the battery stored 2 kWh and gave back 1.5 kWh; the home used 28.3 kWh in all. Heat pump used most (12.5 kWh), then Dryer energy (3.2 kWh); 12.6 kWh went to no listed device. Gas: 4.25 m³. Water: 350 L.",
      start: "2026-10-26T00:00:00+01:00",
      end: "2026-10-28T14:30:00+01:00",
      unit: "kWh",
      consumed: 28.3,
      grid: { imported: 27.5, exported: 6.1 },
      solar: { produced: 7.4 },
      battery: { charged: 2, discharged: 1.5 },
      gas: { consumed: 4.25, unit: "m³" },
      water: { consumed: 350, unit: "L" },
      devices: [
        { statistic_id: "sensor.heat_pump_energy", name: "Heat pump", consumed: 12.5 },
        { statistic_id: "sensor.dryer_energy", name: "Dryer energy", consumed: 3.2 },
      ],
      untracked: 12.6,
    });
  });

  it("reads the one local day that holds start with period day, the 25-hour one here", async () => {
    const out = await call("ha_agent_energy", { start: "2026-10-25T12:00", period: "day" });
    expect([out.start, out.end]).toEqual(["2026-10-25T00:00:00+02:00", "2026-10-26T00:00:00+01:00"]);
    expect(out.grid).toEqual({ imported: 15, exported: 0 });
    expect((out.devices as { consumed: number }[])[0]).toEqual({ statistic_id: "sensor.heat_pump_energy", name: "Heat pump", consumed: 4 });
  });

  it("reads the older grid format (flow_from and flow_to) to the same totals, and says when energy is not set up", async () => {
    const energy = house.energy!;
    const current = await call("ha_agent_energy", { start: "today", period: "week" });
    try {
      energy.prefs = LEGACY_PREFS;
      const legacy = await call("ha_agent_energy", { start: "today", period: "week" });
      expect(legacy).toEqual(current);

      energy.prefs = undefined;
      const none = await callTool(stack.client, "ha_agent_energy", { start: "today" });
      expect(none.isError).toBe(true);
      expect(none.text).toMatch(/^Home Assistant's Energy dashboard is not set up.*Settings → Dashboards → Energy.*\(energy_not_configured\)$/s);
    } finally {
      energy.prefs = PREFS;
    }
  });

  it("primes the energy analyst with the period's totals, and reads the period in the same forms", async () => {
    const prime = async (period: string) => {
      const got = await stack.client.getPrompt({ name: "energy_analyst", arguments: { period, max_tokens: "2000" } });
      return { system: (got.messages[0]!.content as { text: string }).text, priming: (got.messages.at(-1)!.content as { text: string }).text };
    };
    const week = await prime("this week");
    expect(week.priming).toContain("you used 27.5 kWh from the grid and exported 6.1 kWh");
    expect(week.priming).toContain("- sensor.heat_pump_energy (Heat pump): 12.5 kWh");
    expect(week.system).toContain('energy takes it as {"start":"today","period":"week"}');
    const sunday = await prime("2026-10-25");
    expect(sunday.priming).toContain("On 2026-10-25 (2026-10-25 00:00 CEST to 2026-10-26 00:00 CET) you used 15 kWh from the grid");
    await expect(stack.client.getPrompt({ name: "energy_analyst", arguments: { period: "fortnight" } })).rejects.toThrow(/"fortnight" is not a period/);
  });
});
