import type { House, HouseDevice, HouseEntity } from "./house-schema.js";
import { around, slug } from "./demo/index.js";
import { createRng, hexId, type Rng } from "./random.js";

/**
 * Big, deterministic homes for benchmarks: `entities` entities (10,000 to
 * 16,000 is the realistic top end) on several floors, with the domain mix of
 * real large installations: mostly sensors and binary sensors, then lights,
 * switches and the rest. Built directly in its final shape, without schema
 * parsing, so 10,000 entities take well under a second.
 */
export function generateHouse(o: { entities: number; seed: number }): House {
  const rng = createRng(o.seed);
  const target = Math.max(1, Math.floor(o.entities));
  const floorCount = Math.max(1, Math.min(8, Math.ceil(target / 2500)));
  const floors = Array.from({ length: floorCount }, (_, i) => ({
    floor_id: `floor_${i}`, name: i === 0 ? "Ground Floor" : `Floor ${i}`, level: i, icon: `mdi:home-floor-${Math.min(i, 3)}`,
    aliases: i === 1 ? ["upstairs"] : i === 0 ? ["downstairs"] : [],
  }));
  const labels = LABELS.map((name) => ({ label_id: name.toLowerCase().replace(/ /g, "_"), name, icon: null, color: null, description: null }));
  const areaCount = Math.max(1, Math.round(target / 60));
  const areas = Array.from({ length: areaCount }, (_, i) => {
    const kind = ROOM_KINDS[i % ROOM_KINDS.length]!;
    const n = Math.floor(i / ROOM_KINDS.length) + 1;
    const floor = floors[i % floorCount]!;
    const name = n === 1 ? kind : `${kind} ${n}`;
    return {
      area_id: slug(name), name, floor_id: floor.floor_id, aliases: n === 1 && kind === "Living Room" ? ["lounge"] : [], icon: null,
      labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null,
    };
  });
  const entries = INTEGRATIONS.map((domain) => ({ entry_id: hexId(`gen-entry:${o.seed}:${domain}`, 26).toUpperCase(), domain, title: domain }));
  const entryOf = new Map(entries.map((e) => [e.domain, e.entry_id]));
  const devices: HouseDevice[] = [];
  const entities: HouseEntity[] = [];
  let d = 0;
  while (entities.length < target) {
    const type = pickWeighted(rng, DEVICE_TYPES);
    const area = areas[rng.int(0, areaCount - 1)]!;
    const deviceName = `${area.name} ${type.name} ${++d}`;
    const objectId = slug(deviceName);
    const deviceId = hexId(`gen-device:${o.seed}:${d}`);
    const entryId = entryOf.get(type.integration)!;
    devices.push({
      id: deviceId, name: deviceName, name_by_user: null, manufacturer: type.manufacturer, model: type.model, model_id: type.model,
      area_id: area.area_id, config_entry_id: entryId, config_subentry_id: null, parent_device_id: null, identifiers: [[type.integration, hexId(`gen-ident:${o.seed}:${d}`, 16)]],
      connections: [], sw_version: "1.0.0", hw_version: null, serial_number: null, via_device_id: null, entry_type: null,
      labels: rng.chance(0.1) ? [rng.pick(labels).label_id] : [], disabled_by: null, configuration_url: null,
    });
    for (const spec of type.entities) {
      if (entities.length >= target) break;
      const entityId = `${spec.domain}.${objectId}${spec.key ? `_${spec.key}` : ""}`;
      const state = spec.state(rng);
      const attributes = { ...spec.attributes, friendly_name: spec.key ? `${deviceName} ${spec.name}` : deviceName };
      if (spec.domain === "light") Object.assign(attributes, state === "on" ? { color_mode: "brightness", brightness: rng.int(1, 255) } : { color_mode: null, brightness: null });
      entities.push({
        entity_id: entityId, state, attributes,
        registry: {
          platform: type.integration, unique_id: hexId(`gen-uid:${o.seed}:${entityId}`, 20), device_id: deviceId, area_id: null, config_entry_id: entryId,
          labels: [], disabled_by: spec.disabled && rng.chance(0.5) ? "integration" : null, hidden_by: null, entity_category: spec.category ?? null,
          has_entity_name: true, original_name: spec.key ? spec.name : null, name: null, icon: null, translation_key: null, aliases: [],
          original_device_class: (spec.attributes.device_class as string | undefined) ?? null,
        },
      });
    }
  }
  const flapping = entities.filter((e) => e.entity_id.startsWith("switch.") && !e.registry?.disabled_by).slice(0, 3).map((e) => e.entity_id);
  const outageTarget = entities.find((e) => e.entity_id.startsWith("sensor.") && e.attributes.device_class === "temperature" && !e.registry?.disabled_by);
  return {
    name: `Generated house (${target} entities, seed ${o.seed})`,
    config: {
      location_name: `Generated ${o.seed}`, latitude: 52.37, longitude: 4.89, elevation: 0, radius: 100, time_zone: "Europe/Amsterdam", country: "NL",
      currency: "EUR", language: "en", unit_system: "metric", internal_url: null, external_url: null,
    },
    floors, areas, labels, config_entries: entries, devices, entities,
    history: { flapping, outages: outageTarget ? [{ entity_id: outageTarget.entity_id, start_hours_ago: 6, hours: 1 }] : [], scripted: [] },
    automations: [],
    scripts: {},
    automation_runs: [],
  };
}

interface GenEntity {
  domain: string;
  key?: string;
  name: string;
  state: (rng: Rng) => string;
  attributes: Record<string, unknown>;
  category?: "config" | "diagnostic";
  disabled?: boolean;
}

interface GenDevice {
  name: string;
  weight: number;
  integration: string;
  manufacturer: string;
  model: string;
  entities: GenEntity[];
}

const onOff = (p: number) => (rng: Rng) => (rng.chance(p) ? "on" : "off");
const m = (unit: string, deviceClass?: string) => ({ state_class: "measurement", unit_of_measurement: unit, ...(deviceClass ? { device_class: deviceClass } : {}) });
const battery: GenEntity = { domain: "sensor", key: "battery", name: "Battery", state: around(75, 24, 0), attributes: m("%", "battery"), category: "diagnostic" };
const signal: GenEntity = { domain: "sensor", key: "rssi", name: "RSSI", state: around(-70, 12, 0), attributes: m("dBm", "signal_strength"), category: "diagnostic", disabled: true };

// Weights give roughly 45% sensors, 18% binary sensors, 10% lights, 9% switches and a long tail, like large real homes.
const DEVICE_TYPES: GenDevice[] = [
  { name: "Climate", weight: 14, integration: "zha", manufacturer: "LUMI", model: "lumi.weather", entities: [
    { domain: "sensor", key: "temperature", name: "Temperature", state: around(20.5, 3, 1), attributes: m("°C", "temperature") },
    { domain: "sensor", key: "humidity", name: "Humidity", state: around(50, 12, 0), attributes: m("%", "humidity") },
    { domain: "sensor", key: "pressure", name: "Pressure", state: around(1012, 8, 1), attributes: m("hPa", "atmospheric_pressure") }, battery, signal] },
  { name: "Motion", weight: 10, integration: "zha", manufacturer: "LUMI", model: "lumi.motion.ac02", entities: [
    { domain: "binary_sensor", name: "Motion", state: onOff(0.15), attributes: { device_class: "motion" } },
    { domain: "sensor", key: "illuminance", name: "Illuminance", state: around(200, 190, 0), attributes: m("lx", "illuminance") }, battery] },
  { name: "Contact", weight: 9, integration: "zha", manufacturer: "LUMI", model: "lumi.sensor_magnet.aq2", entities: [
    { domain: "binary_sensor", name: "Opening", state: onOff(0.1), attributes: { device_class: "opening" } }, battery, signal] },
  { name: "Light", weight: 15, integration: "hue", manufacturer: "Signify Netherlands B.V.", model: "LTA009", entities: [
    { domain: "light", name: "Light", state: onOff(0.35), attributes: { supported_color_modes: ["brightness"], supported_features: 40 } }] },
  { name: "Plug", weight: 8, integration: "shelly", manufacturer: "Shelly", model: "SNPL-00112EU", entities: [
    { domain: "switch", name: "Switch", state: onOff(0.6), attributes: { device_class: "outlet" } },
    { domain: "sensor", key: "power", name: "Power", state: around(40, 39, 1), attributes: m("W", "power") },
    { domain: "sensor", key: "energy", name: "Energy", state: around(100, 90, 2), attributes: { state_class: "total_increasing", unit_of_measurement: "kWh", device_class: "energy" } },
    { domain: "update", key: "firmware", name: "Firmware", state: () => "off", attributes: { installed_version: "1.4.4", latest_version: "1.4.4" }, category: "config" },
    { domain: "button", key: "restart", name: "Restart", state: () => "unknown", attributes: { device_class: "restart" }, category: "config" }] },
  { name: "Relay", weight: 4, integration: "shelly", manufacturer: "Shelly", model: "SNSW-001P16EU", entities: [
    { domain: "switch", name: "Relay", state: onOff(0.4), attributes: {} },
    { domain: "sensor", key: "power", name: "Power", state: around(20, 19, 1), attributes: m("W", "power") }] },
  { name: "Blind", weight: 3, integration: "shelly", manufacturer: "Shelly", model: "SNSW-102P16EU", entities: [
    { domain: "cover", name: "Blind", state: (rng) => (rng.chance(0.5) ? "open" : "closed"), attributes: { device_class: "blind", supported_features: 15 } }] },
  { name: "Thermostat", weight: 2, integration: "zha", manufacturer: "Danfoss", model: "eTRV0100", entities: [
    { domain: "climate", name: "Thermostat", state: () => "heat", attributes: { hvac_modes: ["off", "heat"], min_temp: 5, max_temp: 30, current_temperature: 20, temperature: 21 } }, battery] },
  { name: "Speaker", weight: 1, integration: "sonos", manufacturer: "Sonos", model: "S38", entities: [
    { domain: "media_player", name: "Speaker", state: (rng) => rng.pick(["idle", "playing", "paused"]), attributes: { device_class: "speaker", volume_level: 0.2 } },
    { domain: "number", key: "bass", name: "Bass", state: () => "0", attributes: { min: -10, max: 10, step: 1 }, category: "config" }] },
  { name: "Lock", weight: 1, integration: "nuki", manufacturer: "Nuki", model: "Smart Lock 4.0", entities: [
    { domain: "lock", name: "Lock", state: () => "locked", attributes: {} }, battery] },
  { name: "Fan", weight: 1, integration: "zha", manufacturer: "IKEA of Sweden", model: "E2007", entities: [
    { domain: "fan", name: "Fan", state: onOff(0.3), attributes: { percentage: 0 } },
    { domain: "select", key: "mode", name: "Mode", state: () => "auto", attributes: { options: ["auto", "low", "high"] }, category: "config" }] },
];

const INTEGRATIONS = [...new Set(DEVICE_TYPES.map((t) => t.integration))];
const ROOM_KINDS = ["Living Room", "Kitchen", "Bedroom", "Bathroom", "Office", "Hallway", "Storage", "Meeting Room", "Lab", "Workshop", "Garage", "Lobby"];
const LABELS = ["Security", "Energy", "Climate", "Lighting", "Critical", "Outdoor", "Maintenance", "Guest", "Kids", "Network", "Water", "Solar"];

function pickWeighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let total = 0;
  for (const i of items) total += i.weight;
  let r = rng.next() * total;
  for (const i of items) if ((r -= i.weight) < 0) return i;
  return items[items.length - 1]!;
}
