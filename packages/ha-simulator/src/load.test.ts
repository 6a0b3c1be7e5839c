import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoHouse } from "./demo/index.js";
import { loadHouseFile, parseHouse } from "./load.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sim-house-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadHouseFile", () => {
  it("accepts a short hand-written house and fills HA's defaults", async () => {
    const path = join(dir, "house.json");
    await writeFile(path, JSON.stringify({
      areas: [{ area_id: "kitchen", name: "Kitchen" }],
      entities: [{ entity_id: "light.kitchen", state: "on", registry: { platform: "hue", area_id: "kitchen" } }],
    }));
    const house = await loadHouseFile(path);
    expect(house.config.unit_system).toBe("metric");
    expect(house.areas[0]).toMatchObject({ floor_id: null, aliases: [], labels: [] });
    expect(house.entities[0]!.registry).toMatchObject({ device_id: null, has_entity_name: false, labels: [] });
  });

  it("names the bad field and the broken reference", async () => {
    const path = join(dir, "bad.json");
    await writeFile(path, JSON.stringify({ entities: [{ entity_id: "Light Kitchen", state: true }] }));
    await expect(loadHouseFile(path)).rejects.toThrow(/entities\[0\]\.entity_id: expected domain\.object_id.*entities\[0\]\.state/);
    expect(() => parseHouse({ entities: [{ entity_id: "light.x", state: "on", registry: { platform: "hue", device_id: "nope" } }] })).toThrow(
      /entities\[0\]\.registry\.device_id: unknown device "nope"/,
    );
    expect(() => parseHouse({ entities: [{ entity_id: "light.x", registry: { platform: "hue", config_entry_id: "gone" } }] })).toThrow(
      'unknown config entry "gone"; add it to config_entries or fix the id',
    );
    await writeFile(path, "{ not json");
    await expect(loadHouseFile(path)).rejects.toThrow(/is not valid JSON/);
  });

  it("round-trips the demo house through JSON", () => {
    const house = demoHouse({ nowMs: Date.UTC(2026, 0, 1) });
    expect(parseHouse(JSON.parse(JSON.stringify(house)))).toEqual(house);
  });
});
