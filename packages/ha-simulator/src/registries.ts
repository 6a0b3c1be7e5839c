import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  ExtendedEntityRegistryEntry,
  FloorRegistryEntry,
  LabelRegistryEntry,
} from "./common/index.js";
import type { HouseConfigEntry, HouseDevice, HouseEntity } from "./house-schema.js";
import { dict, own } from "./common/index.js";
import { hexId } from "./random.js";

/** What the simulator stores per registry entry; wire forms are derived from it. */
export interface SimEntityEntry extends EntityRegistryEntry {
  aliases: string[];
  original_device_class: string | null;
  device_class: string | null;
  created_at: number;
  modified_at: number;
}

/** What the simulator stores per device: the house's device plus its times; `deviceWireForm` derives what HA sends. */
export type SimDeviceEntry = HouseDevice & { created_at: number; modified_at: number };

/** The five registries plus config entries, keyed by id, in insertion order. */
export class Registries {
  readonly entities = new Map<string, SimEntityEntry>();
  readonly devices = new Map<string, SimDeviceEntry>();
  readonly areas = new Map<string, AreaRegistryEntry>();
  readonly floors = new Map<string, FloorRegistryEntry>();
  readonly labels = new Map<string, LabelRegistryEntry>();
  readonly configEntries = new Map<string, HouseConfigEntry>();
}

/** HA's capability attributes per domain: the ones that describe what an entity can do, not what it is doing. */
const CAPABILITY_KEYS = new Map<string, string[]>(Object.entries({
  light: ["supported_color_modes", "min_color_temp_kelvin", "max_color_temp_kelvin", "min_mireds", "max_mireds", "effect_list"],
  climate: ["hvac_modes", "min_temp", "max_temp", "target_temp_step", "fan_modes", "preset_modes", "swing_modes", "min_humidity", "max_humidity"],
  sensor: ["state_class", "options"],
  fan: ["preset_modes"],
  select: ["options"],
  input_select: ["options"],
  number: ["min", "max", "step", "mode"],
  input_number: ["min", "max", "step", "mode"],
  media_player: ["source_list", "sound_mode_list"],
  vacuum: ["fan_speed_list"],
  water_heater: ["min_temp", "max_temp", "operation_list"],
  humidifier: ["min_humidity", "max_humidity", "available_modes"],
}));

/** `config/entity_registry/list`: HA's partial dict, without aliases or device classes. */
export function entityListForm(e: SimEntityEntry): EntityRegistryEntry & Record<string, unknown> {
  return {
    area_id: e.area_id,
    categories: e.categories ?? {},
    config_entry_id: e.config_entry_id,
    config_subentry_id: null,
    created_at: e.created_at,
    device_id: e.device_id,
    disabled_by: e.disabled_by,
    entity_category: e.entity_category,
    entity_id: e.entity_id,
    has_entity_name: e.has_entity_name,
    hidden_by: e.hidden_by,
    icon: e.icon,
    id: e.id,
    labels: e.labels,
    modified_at: e.modified_at,
    name: e.name,
    options: e.options ?? {},
    original_name: e.original_name,
    platform: e.platform,
    translation_key: e.translation_key,
    unique_id: e.unique_id,
  };
}

/** `config/entity_registry/get_entries`: the list form plus aliases, capabilities and device classes. */
export function entityExtendedForm(e: SimEntityEntry, attributes: Record<string, unknown> | undefined): ExtendedEntityRegistryEntry {
  const domain = e.entity_id.slice(0, e.entity_id.indexOf("."));
  let capabilities: Record<string, unknown> | null = null;
  for (const key of CAPABILITY_KEYS.get(domain) ?? []) {
    if (attributes && Object.hasOwn(attributes, key)) (capabilities ??= {})[key] = attributes[key];
  }
  return {
    ...entityListForm(e),
    aliases: e.aliases,
    capabilities,
    device_class: e.device_class,
    original_device_class: e.original_device_class,
    original_icon: null,
  };
}

const ENTITY_CATEGORY_INDEX = { config: 0, diagnostic: 1 } as const;

/**
 * `config/entity_registry/list_for_display`: short keys, empty values left
 * out, disabled entities skipped, as HA sends it to its frontend.
 */
export function entityDisplayList(entries: Iterable<SimEntityEntry>) {
  const entities: Record<string, unknown>[] = [];
  for (const e of entries) {
    if (e.disabled_by !== null) continue;
    const d = dict<unknown>({ ei: e.entity_id, pl: e.platform });
    if (e.area_id) d.ai = e.area_id;
    if (e.device_id) d.di = e.device_id;
    d.lb = e.labels;
    if (e.icon) d.ic = e.icon;
    if (e.translation_key) d.tk = e.translation_key;
    if (e.entity_category) d.ec = ENTITY_CATEGORY_INDEX[e.entity_category];
    if (e.hidden_by) d.hb = true;
    // HA sends the entity's own name only when the user has not renamed it.
    if (!e.name && e.has_entity_name) d.en = e.original_name;
    entities.push(d);
  }
  return { entity_categories: { 0: "config", 1: "diagnostic" }, entities };
}

/**
 * A device as `config/device_registry/list` sends it in HA 2026.9+. A regular
 * device has `config_entry_id`/`config_subentry_id` and the deprecated list
 * fields derived from them; a child device has only the smaller set HA gives
 * it, with `parent_device_id`.
 */
export function deviceWireForm(d: SimDeviceEntry): DeviceRegistryEntry {
  const common = {
    area_id: d.area_id,
    config_entry_id: d.config_entry_id,
    config_subentry_id: d.config_subentry_id,
    created_at: d.created_at,
    disabled_by: d.disabled_by,
    id: d.id,
    identifiers: d.identifiers,
    labels: d.labels,
    modified_at: d.modified_at,
    name: d.name,
    name_by_user: d.name_by_user,
  };
  if (d.parent_device_id) return { ...common, parent_device_id: d.parent_device_id };
  const entry = d.config_entry_id;
  return {
    ...common,
    config_entries: entry ? [entry] : [],
    config_entries_subentries: entry ? { [entry]: [d.config_subentry_id] } : {},
    configuration_url: d.configuration_url,
    connections: d.connections,
    entry_type: d.entry_type,
    hw_version: d.hw_version,
    manufacturer: d.manufacturer,
    model: d.model,
    model_id: d.model_id,
    primary_config_entry: entry,
    serial_number: d.serial_number,
    sw_version: d.sw_version,
    via_device_id: d.via_device_id,
  };
}

/** The device's area, or for a child device without one its parent's, as HA resolves it. */
export function deviceArea(devices: ReadonlyMap<string, SimDeviceEntry>, deviceId: string): string | null {
  const d = devices.get(deviceId);
  if (!d) return null;
  if (d.area_id !== null || !d.parent_device_id) return d.area_id;
  return devices.get(d.parent_device_id)?.area_id ?? null;
}

/** `config_entries/get` rows: what HA reports for a loaded integration. */
export function configEntryForm(c: HouseConfigEntry, createdAt: number) {
  return {
    created_at: createdAt,
    entry_id: c.entry_id,
    domain: c.domain,
    modified_at: createdAt,
    title: c.title,
    source: "user",
    state: "loaded",
    supports_options: false,
    supports_remove_device: false,
    supports_unload: true,
    supports_reconfigure: false,
    supported_subentry_types: {},
    pref_disable_new_entities: false,
    pref_disable_polling: false,
    disabled_by: null,
    reason: null,
    error_reason_translation_key: null,
    error_reason_translation_placeholders: null,
    num_subentries: 0,
  };
}

export function registryEntry(e: HouseEntity, createdAt: number): SimEntityEntry {
  const r = e.registry!;
  return {
    id: hexId(`entity:${e.entity_id}`),
    entity_id: e.entity_id,
    unique_id: r.unique_id ?? e.entity_id,
    platform: r.platform,
    device_id: r.device_id,
    area_id: r.area_id,
    config_entry_id: r.config_entry_id,
    labels: r.labels,
    categories: {},
    disabled_by: r.disabled_by,
    hidden_by: r.hidden_by,
    entity_category: r.entity_category,
    has_entity_name: r.has_entity_name,
    original_name: r.original_name,
    name: r.name,
    icon: r.icon,
    translation_key: r.translation_key,
    options: {},
    aliases: r.aliases,
    original_device_class: r.original_device_class,
    device_class: null,
    created_at: createdAt,
    modified_at: createdAt,
  };
}

/** The old values of the fields that `changes` touches, which is what HA puts in `changes`. */
export function pickOld<T extends object>(entry: T, changes: Partial<T>): Record<string, unknown> {
  const old = dict<unknown>();
  for (const key of Object.keys(changes)) old[key] = own(entry as Record<string, unknown>, key);
  return old;
}
