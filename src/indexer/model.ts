import type {
  AreaRegistryEntry,
  DeviceRegistryEntry,
  EntityRegistryEntry,
  ExtendedEntityRegistryEntry,
  FloorRegistryEntry,
  LabelRegistryEntry,
} from "../ha/index.js";
import { dict } from "../shared/index.js";

/** A config entry as `config_entries/get` lists it; only what the index uses. */
export interface ConfigEntryInfo {
  entry_id: string;
  domain: string;
  title: string;
}

/** Everything the registries say about the home, fetched together. */
export interface Registries {
  entities: EntityRegistryEntry[];
  /** entity_id → aliases and device class, from `get_entries`. */
  extended: Record<string, Pick<ExtendedEntityRegistryEntry, "aliases" | "device_class" | "original_device_class"> | null>;
  devices: DeviceRegistryEntry[];
  areas: AreaRegistryEntry[];
  floors: FloorRegistryEntry[];
  labels: LabelRegistryEntry[];
  configEntries: ConfigEntryInfo[];
}

export const emptyRegistries = (): Registries => ({
  entities: [],
  extended: dict(),
  devices: [],
  areas: [],
  floors: [],
  labels: [],
  configEntries: [],
});

/** The live part of an entity; replaced on every state change. */
export interface LiveState {
  state: string;
  attributes: Record<string, unknown>;
  /** Epoch milliseconds. */
  lastChanged: number;
  lastUpdated: number;
}

/**
 * The structural part of an entity, resolved the way Home Assistant resolves
 * it (name, area through the device, floor through the area, labels from all
 * three). Rebuilt when a registry changes, not when a state changes.
 */
export interface EntityStructure {
  entityId: string;
  domain: string;
  objectId: string;
  name: string;
  aliases: string[];
  areaId: string | null;
  floorId: string | null;
  deviceId: string | null;
  /** Label ids from the entity, its device and its area, without repeats. */
  labels: string[];
  platform: string | null;
  configEntryId: string | null;
  deviceClass: string | null;
  unit: string | null;
  disabled: boolean;
  hidden: boolean;
  entityCategory: "config" | "diagnostic" | null;
  /** False for entities that have a state but no registry entry. */
  registered: boolean;
}

/** What `HomeIndex.entity()` returns: structure, names of what it points at, and the state. */
export interface IndexedEntity extends EntityStructure {
  areaName: string | null;
  floorName: string | null;
  deviceName: string | null;
  manufacturer: string | null;
  model: string | null;
  labelNames: string[];
  integrationTitle: string | null;
  /** Null when the entity has no state (disabled, or not loaded). */
  state: LiveState | null;
}

export interface AreaInfo {
  areaId: string;
  name: string;
  aliases: string[];
  floorId: string | null;
  floorName: string | null;
  labels: string[];
}

export interface DeviceInfo {
  deviceId: string;
  name: string;
  manufacturer: string | null;
  model: string | null;
  /** The device's own area, or for a child device without one its parent's. */
  areaId: string | null;
  /** Set for a child device (HA 2026.9): a logical part of that device. */
  parentDeviceId: string | null;
  labels: string[];
  configEntries: string[];
  disabled: boolean;
}

export interface FloorInfo {
  floorId: string;
  name: string;
  aliases: string[];
  level: number | null;
}

export interface LabelInfo {
  labelId: string;
  name: string;
  description: string | null;
}
