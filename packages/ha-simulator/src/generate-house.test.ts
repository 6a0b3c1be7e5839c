import { describe, expect, it } from "vitest";
import { generateHouse } from "./generate-house.js";
import { HouseSchema } from "./house-schema.js";

describe("generateHouse", () => {
  it("builds exactly the requested number of entities, deterministically per seed", () => {
    const a = generateHouse({ entities: 10_000, seed: 7 });
    const b = generateHouse({ entities: 10_000, seed: 7 });
    const c = generateHouse({ entities: 10_000, seed: 8 });
    expect(a.entities).toHaveLength(10_000);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
    expect(new Set(a.entities.map((e) => e.entity_id)).size).toBe(10_000);
  });

  it("has a realistic domain mix, floors, areas, devices and labels, and passes the house schema", () => {
    const house = generateHouse({ entities: 12_000, seed: 1 });
    const count = (d: string) => house.entities.filter((e) => e.entity_id.startsWith(`${d}.`)).length / house.entities.length;
    expect(count("sensor")).toBeGreaterThan(0.35);
    expect(count("binary_sensor")).toBeGreaterThan(0.08);
    expect(count("light")).toBeGreaterThan(0.05);
    expect(count("switch")).toBeGreaterThan(0.04);
    expect(new Set(house.entities.map((e) => e.entity_id.split(".")[0])).size).toBeGreaterThanOrEqual(12);
    expect(house.floors.length).toBeGreaterThanOrEqual(3);
    expect(house.areas.length).toBeGreaterThan(100);
    expect(house.devices.length).toBeGreaterThan(2000);
    expect(house.labels.length).toBeGreaterThanOrEqual(10);
    expect(house.history?.flapping.length).toBeGreaterThan(0);
    expect(() => HouseSchema.parse(house)).not.toThrow();
  });
});
