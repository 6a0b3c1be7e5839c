import { own } from "../shared/index.js";
import type { DeviceRegistryEntry, EntityRegistryEntry } from "../ha/index.js";
import type { AreaInfo, DeviceInfo, EntityStructure, FloorInfo, LabelInfo, LiveState, Registries } from "./model.js";
import { homeStrings } from "./string-pool.js";

/** The fields of an entity registry entry the index uses; the rest is not kept, to save memory at 10,000+ entities. */
export type EntityEntryLite = Pick<
  EntityRegistryEntry,
  | "entity_id"
  | "name"
  | "has_entity_name"
  | "original_name"
  | "translation_key"
  | "device_id"
  | "area_id"
  | "labels"
  | "platform"
  | "config_entry_id"
  | "disabled_by"
  | "hidden_by"
  | "entity_category"
>;

/** The registries turned into lookup tables, with areas and devices already resolved. */
export interface ResolvedRegistries {
  entries: Map<string, EntityEntryLite>;
  devices: Map<string, DeviceInfo>;
  areas: Map<string, AreaInfo>;
  floors: Map<string, FloorInfo>;
  labels: Map<string, LabelInfo>;
  /** config entry id → integration title. */
  entryTitles: Map<string, string>;
  extended: Registries["extended"];
}

/**
 * A device's area; a child device (HA 2026.9) without one is in its parent's.
 * Followed up the chain with a guard, so a malformed loop ends.
 */
function effectiveArea(d: DeviceRegistryEntry, byId: ReadonlyMap<string, DeviceRegistryEntry>): string | null {
  let current: DeviceRegistryEntry | undefined = d;
  for (let hops = 0; current && hops < 8; hops++) {
    if (current.area_id) return current.area_id;
    current = current.parent_device_id ? byId.get(current.parent_device_id) : undefined;
  }
  return null;
}

function deviceName(device: Pick<DeviceRegistryEntry, "name_by_user" | "name">): string | null {
  return device.name_by_user || device.name || null;
}

export function resolveRegistries(reg: Registries): ResolvedRegistries {
  const floors = new Map<string, FloorInfo>();
  for (const f of reg.floors) floors.set(f.floor_id, { floorId: f.floor_id, name: f.name, aliases: f.aliases ?? [], level: f.level });
  const areas = new Map<string, AreaInfo>();
  for (const a of reg.areas) {
    areas.set(a.area_id, {
      areaId: a.area_id,
      name: a.name,
      aliases: a.aliases ?? [],
      floorId: a.floor_id,
      floorName: (a.floor_id && floors.get(a.floor_id)?.name) || null,
      labels: a.labels ?? [],
    });
  }
  const devices = new Map<string, DeviceInfo>();
  const parents = new Map(reg.devices.map((d) => [d.id, d]));
  for (const d of reg.devices) {
    devices.set(d.id, {
      deviceId: d.id,
      name: deviceName(d) ?? d.model ?? d.id,
      manufacturer: homeStrings.of(d.manufacturer ?? null),
      model: homeStrings.of(d.model ?? null),
      areaId: homeStrings.of(effectiveArea(d, parents)),
      parentDeviceId: d.parent_device_id ?? null,
      labels: homeStrings.list(d.labels ?? []),
      // HA 2026.8+ names the one config entry; older HA only lists them.
      configEntries: homeStrings.list(d.config_entry_id ? [d.config_entry_id] : (d.config_entries ?? [])),
      disabled: d.disabled_by !== null && d.disabled_by !== undefined,
    });
  }
  const labels = new Map<string, LabelInfo>();
  for (const l of reg.labels) labels.set(l.label_id, { labelId: l.label_id, name: l.name, description: l.description });
  const entryTitles = new Map<string, string>();
  for (const c of reg.configEntries) entryTitles.set(c.entry_id, c.title);
  const entries = new Map<string, EntityEntryLite>();
  for (const e of reg.entities) {
    entries.set(e.entity_id, {
      entity_id: e.entity_id,
      name: e.name,
      has_entity_name: e.has_entity_name,
      original_name: homeStrings.of(e.original_name),
      translation_key: homeStrings.of(e.translation_key ?? null),
      device_id: e.device_id,
      area_id: homeStrings.of(e.area_id),
      labels: homeStrings.list(e.labels ?? []),
      platform: homeStrings.of(e.platform),
      config_entry_id: homeStrings.of(e.config_entry_id),
      disabled_by: homeStrings.of(e.disabled_by),
      hidden_by: homeStrings.of(e.hidden_by),
      entity_category: homeStrings.of(e.entity_category),
    });
  }
  return { entries, devices, areas, floors, labels, entryTitles, extended: reg.extended };
}

/** "living_room_lamp" → "Living Room Lamp": HA's fallback when nothing names an entity. */
function prettify(objectId: string): string {
  return objectId
    .split("_")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

/**
 * The name HA would show. A name the user set in the registry is used as is.
 * With `has_entity_name` the device name is prefixed to the entity's own name
 * (or used alone when the entity has none). Then `original_name`, then the
 * state's `friendly_name`, then the object id.
 */
export function resolveName(args: {
  entry: EntityEntryLite | undefined;
  device: DeviceInfo | undefined;
  friendlyName: unknown;
  objectId: string;
}): string {
  const { entry, device, friendlyName, objectId } = args;
  if (entry?.name) return entry.name;
  if (entry?.has_entity_name && device) {
    if (entry.original_name) return `${device.name} ${entry.original_name}`;
    // A translated entity name exists only in HA's own friendly_name; the registry has just its key.
    if (entry.translation_key && typeof friendlyName === "string" && friendlyName.trim()) return friendlyName;
    return device.name;
  }
  if (entry?.original_name) return entry.original_name;
  if (typeof friendlyName === "string" && friendlyName.trim()) return friendlyName;
  return prettify(objectId);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Resolves one entity's structure from the registries and, when it has one, its state. */
export function resolveEntity(entityId: string, reg: ResolvedRegistries, live: LiveState | undefined): EntityStructure {
  const dot = entityId.indexOf(".");
  // A slice is a new string: thousands of entities would each hold their own "sensor".
  const domain = homeStrings.of(entityId.slice(0, dot));
  const objectId = entityId.slice(dot + 1);
  const entry = reg.entries.get(entityId);
  const device = entry?.device_id ? reg.devices.get(entry.device_id) : undefined;
  const areaId = entry?.area_id || device?.areaId || null;
  const area = areaId ? reg.areas.get(areaId) : undefined;
  const ext = own(reg.extended, entityId);
  const attrs = live?.attributes ?? {};
  const attrClass = typeof attrs.device_class === "string" ? attrs.device_class : null;
  const unit = typeof attrs.unit_of_measurement === "string" ? attrs.unit_of_measurement : null;
  return {
    entityId,
    domain,
    objectId,
    name: resolveName({ entry, device, friendlyName: attrs.friendly_name, objectId }),
    aliases: ext?.aliases ?? [],
    areaId: area ? areaId : null,
    floorId: area?.floorId ?? null,
    deviceId: device ? device.deviceId : null,
    labels: unique([...(entry?.labels ?? []), ...(device?.labels ?? []), ...(area?.labels ?? [])]),
    platform: entry?.platform ?? null,
    configEntryId: entry?.config_entry_id ?? null,
    deviceClass: ext?.device_class ?? attrClass ?? ext?.original_device_class ?? null,
    unit,
    disabled: Boolean(entry?.disabled_by),
    hidden: Boolean(entry?.hidden_by),
    entityCategory: entry?.entity_category ?? null,
    registered: entry !== undefined,
  };
}

/** Whether search and queries leave the entity out unless asked. */
export function isSecondary(s: EntityStructure): boolean {
  return s.disabled || s.hidden || s.entityCategory !== null;
}
