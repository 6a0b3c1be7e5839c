import type { HouseDeviceInput, HouseEntityInput, HouseInput } from "../house-schema.js";
import { createRng, hashString, hexId } from "../random.js";
import type { DeviceModel, DevicePlacement, EntitySpec, RoomSpec } from "./spec.js";
import { slug } from "./spec.js";

/** Integration titles as HA shows them on the integrations page. */
const INTEGRATION_TITLES = new Map(Object.entries({
  hue: "Hue Bridge", zha: "SONOFF Zigbee 3.0 USB Dongle Plus", shelly: "Shelly", sonoff: "SONOFF (eWeLink)", ecobee: "ecobee",
  nest: "Google Nest", sonos: "Sonos", cast: "Google Cast", nuki: "Nuki Bridge", roborock: "Roborock", unifiprotect: "UniFi Protect",
  homewizard: "P1 meter", solaredge: "SolarEdge", home_connect: "Home Connect", husqvarna_automower: "Husqvarna Automower",
  mobile_app: "Mobile App", met: "Home", sun: "Sun", shopping_list: "Shopping list", esphome: "heat-pump-monitor",
}));

/** Domains whose device class HA also puts in the state attributes. */
const DEVICE_CLASS_IN_ATTRIBUTES = new Set(["sensor", "binary_sensor", "cover", "switch", "button", "update", "media_player", "event", "valve", "number"]);

export interface BuiltDevices {
  devices: HouseDeviceInput[];
  entities: HouseEntityInput[];
  configEntries: { entry_id: string; domain: string; title: string }[];
}

export function configEntryId(domain: string): string {
  return hexId(`entry:${domain}`, 26).toUpperCase();
}

/** Expands rooms of placed device models into HA devices, entities and config entries. */
export function buildDevices(rooms: RoomSpec[], models: ReadonlyMap<string, DeviceModel>): BuiltDevices {
  const devices: HouseDeviceInput[] = [];
  const entities: HouseEntityInput[] = [];
  const domains = new Set<string>();
  const hubs = new Map<string, string>();
  // Hubs first, so that zigbee and hue devices can point at them.
  const placements = rooms.flatMap((room) => room.devices.map((p) => ({ room, p })));
  placements.sort((a, b) => hubRank(models, a.p) - hubRank(models, b.p));
  for (const { room, p } of placements) {
    const model = models.get(p.model);
    if (!model) throw new Error(`demo house: unknown device model "${p.model}" in ${room.id}`);
    domains.add(model.integration);
    const deviceName = p.prefix && !p.prefix.startsWith(room.id) ? p.name : `${room.name} ${p.name}`;
    const objectId = p.prefix ?? slug(deviceName);
    const deviceId = hexId(`device:${objectId}`);
    if (model.connection === "none" && model.entities.length === 0) hubs.set(model.integration, deviceId);
    if (p.model === "hue_bridge") hubs.set("hue", deviceId);
    const ieee = macLike(objectId, 8);
    const via = model.connection === "zigbee" ? hubs.get("zha") : model.connection === "hue" ? hubs.get("hue") : undefined;
    devices.push({
      id: deviceId,
      name: deviceName,
      name_by_user: p.nameByUser ?? null,
      manufacturer: model.manufacturer,
      model: model.model,
      model_id: model.modelId,
      area_id: room.id,
      config_entry_id: configEntryId(model.integration),
      identifiers: [[model.integration, model.connection === "zigbee" ? ieee : hexId(`ident:${objectId}`, 16)]],
      connections: model.connection === "zigbee" ? [["zigbee", ieee]] : model.connection === "mac" ? [["mac", macLike(objectId, 6)]] : [],
      sw_version: model.swVersion,
      hw_version: model.hwVersion ?? null,
      serial_number: model.connection === "mac" ? hexId(`serial:${objectId}`, 12).toUpperCase() : null,
      via_device_id: via && via !== deviceId ? via : null,
      entry_type: null,
      labels: [...new Set([...(model.labels ?? []), ...(room.labels ?? []), ...(p.labels ?? [])])],
      disabled_by: p.disabled ? "user" : null,
      configuration_url: model.configurationUrl ? `http://192.168.1.${20 + (hashString(objectId) % 200)}` : null,
    });
    const displayName = p.nameByUser ?? deviceName;
    for (const spec of model.entities) entities.push(buildEntity({ spec, model, objectId, deviceId, displayName, disabled: p.disabled === true }));
  }
  const configEntries = [...domains].map((d) => ({ entry_id: configEntryId(d), domain: d, title: INTEGRATION_TITLES.get(d) ?? d }));
  return { devices, entities, configEntries };
}

function buildEntity(o: { spec: EntitySpec; model: DeviceModel; objectId: string; deviceId: string; displayName: string; disabled: boolean }): HouseEntityInput {
  const { spec, model } = o;
  const entityId = `${spec.domain}.${o.objectId}${spec.key ? `_${spec.key}` : ""}`;
  const rng = createRng(hashString(entityId));
  const state = typeof spec.state === "function" ? spec.state(rng) : spec.state;
  const own = typeof spec.attributes === "function" ? spec.attributes(state, rng) : { ...(spec.attributes ?? {}) };
  const attributes = { ...own };
  if (spec.deviceClass && DEVICE_CLASS_IN_ATTRIBUTES.has(spec.domain)) attributes.device_class = spec.deviceClass;
  if (spec.icon) attributes.icon = spec.icon;
  attributes.friendly_name = spec.name ? `${o.displayName} ${spec.name}` : o.displayName;
  return {
    entity_id: entityId,
    state,
    attributes,
    registry: {
      platform: model.integration,
      unique_id: hexId(`uid:${entityId}`, 20),
      device_id: o.deviceId,
      config_entry_id: configEntryId(model.integration),
      labels: spec.labels ?? (spec.domain === "light" ? ["lighting"] : []),
      disabled_by: spec.disabledBy ?? (o.disabled ? "device" : null),
      hidden_by: spec.hiddenBy ?? null,
      entity_category: spec.category ?? null,
      has_entity_name: true,
      original_name: spec.name ?? null,
      translation_key: spec.translationKey ?? (spec.name ? slug(spec.name) : null),
      icon: null,
      original_device_class: spec.deviceClass ?? null,
    },
  };
}

function hubRank(models: ReadonlyMap<string, DeviceModel>, p: DevicePlacement): number {
  const m = models.get(p.model);
  return m && (p.model === "hue_bridge" || (m.connection === "none" && m.entities.length === 0)) ? 0 : 1;
}

function macLike(seed: string, bytes: number): string {
  return (hexId(`mac:${seed}`, bytes * 2).match(/../g) ?? []).join(":");
}

export type { HouseInput };
