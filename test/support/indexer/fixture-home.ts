import type { CompressedState, DeviceRegistryEntry, EntityRegistryEntry } from "../../../src/ha/index.js";
import type { Registries } from "../../../src/indexer/model.js";

/** A small hand-made home for unit tests: two floors, five areas, a handful of devices. */

function device(id: string, name: string, over: Partial<DeviceRegistryEntry> = {}): DeviceRegistryEntry {
  return {
    id,
    name,
    name_by_user: null,
    manufacturer: null,
    model: null,
    model_id: null,
    area_id: null,
    config_entries: ["entry_zha"],
    primary_config_entry: "entry_zha",
    identifiers: [],
    connections: [],
    sw_version: null,
    hw_version: null,
    serial_number: null,
    via_device_id: null,
    entry_type: null,
    labels: [],
    disabled_by: null,
    configuration_url: null,
    ...over,
  };
}

function entry(entityId: string, over: Partial<EntityRegistryEntry> = {}): EntityRegistryEntry {
  return {
    id: `reg_${entityId}`,
    entity_id: entityId,
    unique_id: `uid_${entityId}`,
    platform: "zha",
    device_id: null,
    area_id: null,
    config_entry_id: "entry_zha",
    labels: [],
    disabled_by: null,
    hidden_by: null,
    entity_category: null,
    has_entity_name: false,
    original_name: null,
    name: null,
    icon: null,
    translation_key: null,
    ...over,
  };
}

export function fixtureRegistries(): Registries {
  return {
    floors: [
      { floor_id: "ground", name: "Ground Floor", level: 0, icon: null, aliases: [] },
      { floor_id: "first", name: "First Floor", level: 1, icon: null, aliases: [] },
    ],
    areas: [
      { area_id: "living_room", name: "Living Room", floor_id: "ground", aliases: ["Lounge"], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null },
      { area_id: "kitchen", name: "Kitchen", floor_id: "ground", aliases: [], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null },
      { area_id: "hallway", name: "Hallway", floor_id: "ground", aliases: ["Entrance"], icon: null, labels: ["security"], picture: null, humidity_entity_id: null, temperature_entity_id: null },
      { area_id: "bedroom", name: "Bedroom", floor_id: "first", aliases: [], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null },
      { area_id: "cafe", name: "Café", floor_id: "ground", aliases: [], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null },
    ],
    labels: [
      { label_id: "security", name: "Security", icon: null, color: null, description: "Doors and alarms" },
      { label_id: "energy", name: "Energy", icon: null, color: null, description: null },
    ],
    configEntries: [
      { entry_id: "entry_zha", domain: "zha", title: "Zigbee Home Automation" },
      { entry_id: "entry_hue", domain: "hue", title: "Hue Bridge" },
    ],
    devices: [
      device("dev_motion", "Hall Motion", { manufacturer: "Aqara", model: "RTCGQ11LM", area_id: "hallway" }),
      device("dev_door", "Front Door Contact", { manufacturer: "Aqara", model: "MCCGQ11LM", area_id: "hallway" }),
      device("dev_bulb", "Bedroom Ceiling", { manufacturer: "Signify", model: "Hue White", area_id: "bedroom", config_entries: ["entry_hue"], primary_config_entry: "entry_hue" }),
      device("dev_climate", "Lounge Sensor", { manufacturer: "Xiaomi", model: "LYWSD03MMC", area_id: "living_room", name_by_user: "Living Room Climate" }),
      device("dev_plug", "Kettle Plug", { manufacturer: "IKEA", model: "TRETAKT", area_id: "kitchen", labels: ["energy"] }),
    ],
    entities: [
      entry("binary_sensor.hall_motion", { device_id: "dev_motion", has_entity_name: true, original_name: "Motion" }),
      entry("sensor.hall_motion_battery", { device_id: "dev_motion", has_entity_name: true, original_name: "Battery", entity_category: "diagnostic" }),
      entry("binary_sensor.front_door", { device_id: "dev_door", has_entity_name: true, original_name: null, labels: ["security"] }),
      entry("light.bedroom_ceiling", { device_id: "dev_bulb", platform: "hue", config_entry_id: "entry_hue", has_entity_name: true }),
      entry("light.bedroom_reading_lamp", { platform: "hue", config_entry_id: "entry_hue", area_id: "hallway", original_name: "Bedroom Reading Lamp" }),
      entry("sensor.living_room_temperature", { device_id: "dev_climate", has_entity_name: true, original_name: "Temperature" }),
      entry("sensor.living_room_humidity", { device_id: "dev_climate", has_entity_name: true, original_name: "Humidity" }),
      entry("switch.kettle", { device_id: "dev_plug", name: "Kettle", has_entity_name: true, original_name: null }),
      entry("light.kitchen_spots", { area_id: "kitchen", original_name: "Kitchen Spots" }),
      entry("light.cafe_pendant", { area_id: "cafe", original_name: "Pendant" }),
      entry("light.old_lamp", { area_id: "kitchen", original_name: "Old Lamp", disabled_by: "user" }),
      entry("sensor.bedroom_temperature", { area_id: "bedroom", original_name: "Bedroom Temperature" }),
    ],
    extended: {
      "sensor.living_room_temperature": { aliases: ["Lounge thermometer"], device_class: null, original_device_class: "temperature" },
    },
  };
}

const st = (s: string, a: Record<string, unknown> = {}): CompressedState => ({ s, a, c: "ctx", lc: 1_700_000_000 });

export function fixtureStates(): Record<string, CompressedState> {
  return {
    "binary_sensor.hall_motion": st("off", { device_class: "motion", friendly_name: "Hall Motion Motion" }),
    "sensor.hall_motion_battery": st("87", { device_class: "battery", unit_of_measurement: "%" }),
    "binary_sensor.front_door": st("off", { device_class: "door", friendly_name: "Front Door Contact" }),
    "light.bedroom_ceiling": st("on", { friendly_name: "Bedroom Ceiling" }),
    "light.bedroom_reading_lamp": st("off", { friendly_name: "Bedroom Reading Lamp" }),
    "sensor.living_room_temperature": st("21.5", { device_class: "temperature", unit_of_measurement: "°C" }),
    "sensor.living_room_humidity": st("48", { device_class: "humidity", unit_of_measurement: "%" }),
    "switch.kettle": st("off", {}),
    "light.kitchen_spots": st("on", {}),
    "light.cafe_pendant": st("off", {}),
    "sensor.bedroom_temperature": st("19.0", { device_class: "temperature", unit_of_measurement: "°C" }),
    "sun.sun": st("above_horizon", { friendly_name: "Sun" }),
  };
}
