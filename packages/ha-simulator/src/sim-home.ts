import type { AreaRegistryEntry, FloorRegistryEntry, HassState, LabelRegistryEntry } from "./common/index.js";
import type { HouseAreaInput, HouseDevice, HouseDeviceInput, HouseEntityInput, HouseFloorInput, HouseLabelInput } from "./house-schema.js";
import type { SimEntityEntry } from "./registries.js";
import type { ExposureSettings } from "./exposure.js";

/**
 * The live, mutable model of the house. Every mutation fires the event Home
 * Assistant would fire, so connected clients see it.
 */
export interface SimHome {
  /** The current state (treat as read-only), or undefined. */
  getState(entityId: string): HassState | undefined;
  states(): HassState[];
  /** Like HA's `hass.states.async_set`; attributes left out keep the current ones. */
  setState(entityId: string, state: string, attributes?: Record<string, unknown>): void;
  /** Adds the state and, when `registry` is given, the registry entry (`entity_registry_updated` create). */
  addEntity(e: HouseEntityInput): void;
  /** Removes the state (`r` diff) and the registry entry (`entity_registry_updated` remove). */
  removeEntity(entityId: string): void;
  updateEntityRegistry(entityId: string, changes: Partial<SimEntityEntry>): void;
  addDevice(d: HouseDeviceInput): void;
  updateDevice(deviceId: string, changes: Partial<HouseDevice>): void;
  removeDevice(deviceId: string): void;
  /** Creates or updates an area (`area_registry_updated`). */
  upsertArea(a: HouseAreaInput): void;
  /** Changes some fields of an existing area (`area_registry_updated` update). */
  updateArea(areaId: string, changes: Partial<AreaRegistryEntry>): void;
  removeArea(areaId: string): void;
  upsertFloor(f: HouseFloorInput): void;
  updateFloor(floorId: string, changes: Partial<FloorRegistryEntry>): void;
  removeFloor(floorId: string): void;
  upsertLabel(l: HouseLabelInput): void;
  updateLabel(labelId: string, changes: Partial<LabelRegistryEntry>): void;
  removeLabel(labelId: string): void;
  /** Voice-assistant exposure settings (Settings → Voice assistants → Expose). */
  readonly exposure: ExposureSettings;
  /** The latest service calls the home served, by context id (a bounded window), for tests that count actions. */
  readonly serviceCalls: ReadonlyMap<string, { domain: string; service: string }>;
  /** Fires any event on the bus, like `hass.bus.async_fire`. */
  fireEvent(eventType: string, data?: Record<string, unknown>): void;
}
