import { describe, expect, it } from "vitest";
import type { DeviceRegistryEntry, EntityRegistryEntry } from "../ha/index.js";
import { emptyRegistries } from "./model.js";
import { resolveEntity, resolveRegistries } from "./resolve.js";

/** Devices as HA 2026.9 lists them: a regular parent, and child devices in the reduced shape. */
const parent: DeviceRegistryEntry = {
  id: "relay", name: "Pro 2PM", name_by_user: null, area_id: "laundry", labels: [], identifiers: [["shelly", "abc"]], disabled_by: null,
  config_entry_id: "entry_shelly", config_subentry_id: null, manufacturer: "Shelly", model: "Pro 2PM", config_entries: ["entry_shelly"],
};
const child = (id: string, area: string | null): DeviceRegistryEntry => ({
  id, parent_device_id: "relay", name: id, name_by_user: null, area_id: area, labels: [], identifiers: [["shelly", `abc-${id}`]], disabled_by: null,
  config_entry_id: "entry_shelly", config_subentry_id: null,
});
const entity = (entityId: string, deviceId: string): EntityRegistryEntry => ({
  id: entityId, entity_id: entityId, unique_id: entityId, platform: "shelly", device_id: deviceId, area_id: null, config_entry_id: "entry_shelly",
  labels: [], disabled_by: null, hidden_by: null, entity_category: null, has_entity_name: true, original_name: null, name: null, icon: null, translation_key: null,
});

describe("child devices (HA 2026.9)", () => {
  const reg = resolveRegistries({
    ...emptyRegistries(),
    areas: [
      { area_id: "laundry", name: "Laundry", floor_id: null, aliases: [], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null },
      { area_id: "garden", name: "Garden", floor_id: null, aliases: [], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null },
    ],
    devices: [child("boiler", null), parent, child("path_lights", "garden")],
    entities: [entity("switch.boiler", "boiler"), entity("switch.path_lights", "path_lights")],
  });

  it("puts an entity of a child device without an area in the parent device's area", () => {
    expect(resolveEntity("switch.boiler", reg, undefined)).toMatchObject({ deviceId: "boiler", areaId: "laundry" });
    expect(reg.devices.get("boiler")).toMatchObject({ areaId: "laundry", parentDeviceId: "relay", manufacturer: null, configEntries: ["entry_shelly"] });
  });

  it("keeps a child device's own area", () => {
    expect(resolveEntity("switch.path_lights", reg, undefined)).toMatchObject({ areaId: "garden" });
  });

  it("ends on a parent loop instead of spinning", () => {
    const looped = resolveRegistries({
      ...emptyRegistries(),
      devices: [
        { ...child("a", null), parent_device_id: "b" },
        { ...child("b", null), parent_device_id: "a" },
      ],
    });
    expect(looped.devices.get("a")?.areaId).toBeNull();
  });
});
