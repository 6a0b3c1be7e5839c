import type { HouseDeviceInput, HouseEntityInput } from "../house-schema.js";
import { hexId } from "../random.js";
import { configEntryId } from "./build.js";

/**
 * A two-channel relay modelled as HA 2026.9 does: the relay is a regular
 * device, and each channel is a child device of it (`parent_device_id`, no
 * hardware fields of its own). The boiler channel has no area and so sits in
 * the relay's laundry room; the path-lights channel is assigned to the garden.
 */
const RELAY_ID = hexId("device:laundry_room_pro_2pm");
const SHELLY = configEntryId("shelly");

const BOILER_ID = hexId("device:boiler_relay");
const PATH_LIGHTS_ID = hexId("device:garden_path_lights_channel");
const measurement = (unit: string, deviceClass: string) => ({ state_class: "measurement", unit_of_measurement: unit, device_class: deviceClass });

export const CHILD_DEVICE_DEMO: { devices: HouseDeviceInput[]; entities: HouseEntityInput[] } = {
  devices: [
    {
      id: RELAY_ID, name: "Laundry Room Pro 2PM", manufacturer: "Shelly", model: "Shelly Pro 2PM", model_id: "SPSW-202XE16EU",
      area_id: "laundry_room", config_entry_id: SHELLY, identifiers: [["shelly", "34987a5c1e20"]], connections: [["mac", "34:98:7a:5c:1e:20"]],
      sw_version: "1.4.4", hw_version: "gen2", serial_number: "34987A5C1E20", configuration_url: "http://192.168.1.57",
    },
    { id: BOILER_ID, parent_device_id: RELAY_ID, name: "Boiler Relay", area_id: null, identifiers: [["shelly", "34987a5c1e20-switch:0"]] },
    {
      id: PATH_LIGHTS_ID, parent_device_id: RELAY_ID, name: "Garden Path Lights Relay", area_id: "garden",
      identifiers: [["shelly", "34987a5c1e20-switch:1"]], labels: ["outdoor"],
    },
  ],
  entities: [
    entity({ entityId: "sensor.laundry_room_pro_2pm_device_temperature", device: [RELAY_ID, "Laundry Room Pro 2PM"], state: "41.2", name: "Device temperature",
      attributes: measurement("°C", "temperature"), category: "diagnostic" }),
    entity({ entityId: "switch.boiler_relay", device: [BOILER_ID, "Boiler Relay"], state: "on" }),
    entity({ entityId: "sensor.boiler_relay_power", device: [BOILER_ID, "Boiler Relay"], state: "1850.0", name: "Power", attributes: measurement("W", "power") }),
    entity({ entityId: "switch.garden_path_lights_relay", device: [PATH_LIGHTS_ID, "Garden Path Lights Relay"], state: "off" }),
    entity({ entityId: "sensor.garden_path_lights_relay_power", device: [PATH_LIGHTS_ID, "Garden Path Lights Relay"], state: "0.0", name: "Power", attributes: measurement("W", "power") }),
  ],
};

/** An entity named the has_entity_name way: the device's name, then the entity's own (none for the device's main entity). */
function entity(o: {
  entityId: string;
  device: [id: string, name: string];
  state: string;
  name?: string;
  attributes?: Record<string, unknown>;
  category?: "diagnostic";
}): HouseEntityInput {
  const [deviceId, deviceName] = o.device;
  const attributes = o.attributes ?? {};
  return {
    entity_id: o.entityId,
    state: o.state,
    attributes: { ...attributes, friendly_name: o.name ? `${deviceName} ${o.name}` : deviceName },
    registry: {
      platform: "shelly", unique_id: hexId(`uid:${o.entityId}`, 20), device_id: deviceId, config_entry_id: SHELLY, has_entity_name: true,
      original_name: o.name ?? null, entity_category: o.category ?? null,
      original_device_class: typeof attributes.device_class === "string" ? attributes.device_class : null,
      labels: o.entityId.endsWith("_power") ? ["energy"] : [],
    },
  };
}
