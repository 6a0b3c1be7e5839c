import type { AreaRegistryEntry, FloorRegistryEntry, HassContext, LabelRegistryEntry } from "./common/index.js";
import {
  HouseAreaSchema,
  HouseDeviceSchema,
  HouseFloorSchema,
  HouseLabelSchema,
  type HouseAreaInput,
  type HouseDevice,
  type HouseDeviceInput,
  type HouseFloorInput,
  type HouseLabelInput,
} from "./house-schema.js";
import { Registries, pickOld } from "./registries.js";
import { SimulatorError } from "./errors.js";

/**
 * The registry edits of the live home: devices (with HA 2026.9's child
 * devices), areas, floors and labels, each firing the `*_registry_updated`
 * event HA fires. The home's states and entities live in HomeModel.
 */
export abstract class HomeRegistryEdits {
  readonly registries = new Registries();

  abstract now(): number;
  abstract fireEvent(eventType: string, data?: Record<string, unknown>, context?: HassContext): void;
  abstract removeEntity(entityId: string): void;

  addDevice(input: HouseDeviceInput): void {
    const d = HouseDeviceSchema.parse(input);
    if (this.registries.devices.has(d.id)) throw new SimulatorError("device_exists", `Device ${d.id} already exists.`);
    if (d.parent_device_id && !this.registries.devices.has(d.parent_device_id)) {
      throw new SimulatorError("device_not_found", `Parent device ${d.parent_device_id} does not exist; add it first.`);
    }
    const at = this.now() / 1000;
    this.registries.devices.set(d.id, { ...this.withParentEntry(d, this.registries.devices.values()), created_at: at, modified_at: at });
    this.fireEvent("device_registry_updated", { action: "create", device_id: d.id });
  }

  /** A child device belongs to its parent's config entry and subentry (HA 2026.9); the house may leave them out. */
  protected withParentEntry(d: HouseDevice, devices: Iterable<HouseDevice>): HouseDevice {
    if (!d.parent_device_id) return d;
    for (const p of devices) {
      if (p.id === d.parent_device_id) return { ...d, config_entry_id: p.config_entry_id, config_subentry_id: p.config_subentry_id };
    }
    return d;
  }

  updateDevice(deviceId: string, changes: Partial<HouseDevice>): void {
    const d = this.registries.devices.get(deviceId);
    if (!d) throw new SimulatorError("device_not_found", `Device ${deviceId} does not exist.`);
    this.registries.devices.set(deviceId, { ...d, ...changes, id: deviceId, modified_at: this.now() / 1000 });
    this.fireEvent("device_registry_updated", { action: "update", device_id: deviceId, changes: pickOld(d, changes) });
  }

  removeDevice(deviceId: string): void {
    if (!this.registries.devices.delete(deviceId)) throw new SimulatorError("device_not_found", `Device ${deviceId} does not exist.`);
    this.fireEvent("device_registry_updated", { action: "remove", device_id: deviceId });
    // HA removes the device's entities along with it.
    for (const e of [...this.registries.entities.values()]) if (e.device_id === deviceId) this.removeEntity(e.entity_id);
  }

  upsertArea(input: HouseAreaInput): void {
    const a = HouseAreaSchema.parse(input);
    this.upsert(this.registries.areas, a.area_id, a, "area_registry_updated", "area_id");
  }

  updateArea(areaId: string, changes: Partial<AreaRegistryEntry>): void {
    const a = this.registries.areas.get(areaId);
    if (!a) throw new SimulatorError("not_found", `Area ${areaId} does not exist; create it with upsertArea().`);
    this.upsertArea({ ...a, ...changes, area_id: areaId });
  }

  updateFloor(floorId: string, changes: Partial<FloorRegistryEntry>): void {
    const f = this.registries.floors.get(floorId);
    if (!f) throw new SimulatorError("not_found", `Floor ${floorId} does not exist; create it with upsertFloor().`);
    this.upsertFloor({ ...f, ...changes, floor_id: floorId });
  }

  updateLabel(labelId: string, changes: Partial<LabelRegistryEntry>): void {
    const l = this.registries.labels.get(labelId);
    if (!l) throw new SimulatorError("not_found", `Label ${labelId} does not exist; create it with upsertLabel().`);
    this.upsertLabel({ ...l, ...changes, label_id: labelId });
  }

  removeArea(areaId: string): void {
    this.remove(this.registries.areas, areaId, "area_registry_updated", "area_id");
  }

  upsertFloor(input: HouseFloorInput): void {
    const f = HouseFloorSchema.parse(input);
    this.upsert(this.registries.floors, f.floor_id, f, "floor_registry_updated", "floor_id");
  }

  removeFloor(floorId: string): void {
    this.remove(this.registries.floors, floorId, "floor_registry_updated", "floor_id");
  }

  upsertLabel(input: HouseLabelInput): void {
    const l = HouseLabelSchema.parse(input);
    this.upsert(this.registries.labels, l.label_id, l, "label_registry_updated", "label_id");
  }

  removeLabel(labelId: string): void {
    this.remove(this.registries.labels, labelId, "label_registry_updated", "label_id");
  }

  private upsert<T extends object>(
    map: Map<string, T & { created_at?: number; modified_at?: number }>,
    id: string,
    value: T,
    eventType: string,
    idKey: string,
  ): void {
    const at = this.now() / 1000;
    const existing = map.get(id);
    map.set(id, { ...value, created_at: existing?.created_at ?? at, modified_at: at });
    this.fireEvent(eventType, { action: existing ? "update" : "create", [idKey]: id });
  }

  private remove(map: Map<string, unknown>, id: string, eventType: string, idKey: string): void {
    if (!map.delete(id)) throw new SimulatorError("not_found", `${idKey} ${id} does not exist.`);
    this.fireEvent(eventType, { action: "remove", [idKey]: id });
  }
}
