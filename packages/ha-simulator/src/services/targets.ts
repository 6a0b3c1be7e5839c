import { dict } from "../common/index.js";
import type { HomeModel } from "../home.js";
import { deviceArea } from "../registries.js";

export type TargetInput = Record<string, unknown>;

const asList = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/**
 * HA's target resolution: entity ids as given ("all" means every entity of
 * the service's domain), and devices (with their child devices), areas,
 * floors and labels expanded to their entities. Like HA, expansion skips hidden entities, and devices,
 * areas and floors skip config or diagnostic entities too; an entity that
 * carries a targeted label itself is reached unless it is hidden.
 */
export function resolveTargets(home: HomeModel, target: TargetInput, domain: string | undefined): string[] {
  const out = new Set<string>();
  const r = home.registries;
  const inDomain = (id: string) => domain === undefined || id.startsWith(`${domain}.`);
  for (const id of asList(target.entity_id)) {
    if (id === "all") {
      for (const s of home.records()) if (inDomain(s.wire.entity_id)) out.add(s.wire.entity_id);
    } else out.add(id);
  }
  const deviceIds = new Set(asList(target.device_id));
  const areaIds = new Set(asList(target.area_id));
  const labelIds = new Set(asList(target.label_id));
  for (const floorId of asList(target.floor_id)) for (const a of r.areas.values()) if (a.floor_id === floorId) areaIds.add(a.area_id);
  if (labelIds.size > 0) {
    for (const a of r.areas.values()) if (a.labels.some((l) => labelIds.has(l))) areaIds.add(a.area_id);
    for (const d of r.devices.values()) if (d.labels.some((l) => labelIds.has(l))) deviceIds.add(d.id);
  }
  addChildDevices(home, deviceIds);
  if (deviceIds.size + areaIds.size + labelIds.size > 0) {
    for (const e of r.entities.values()) {
      if (e.disabled_by !== null || e.hidden_by !== null || !home.record(e.entity_id)) continue;
      const byLabel = e.labels.some((l) => labelIds.has(l));
      if (!byLabel && e.entity_category !== null) continue;
      const fromDevice = e.device_id ? deviceArea(r.devices, e.device_id) : null;
      const area = e.area_id ?? fromDevice;
      if (byLabel || (e.device_id !== null && deviceIds.has(e.device_id)) || (area !== null && areaIds.has(area))) out.add(e.entity_id);
    }
  }
  return [...out].filter(inDomain);
}

/** Adds the child devices of every device in the set, and theirs, as HA does for a device target. */
function addChildDevices(home: HomeModel, deviceIds: Set<string>): void {
  for (let grew = deviceIds.size > 0; grew; ) {
    grew = false;
    for (const d of home.registries.devices.values()) {
      if (d.parent_device_id && deviceIds.has(d.parent_device_id) && !deviceIds.has(d.id)) {
        deviceIds.add(d.id);
        grew = true;
      }
    }
  }
}

/** Moves `entity_id` and friends given in service data (the old style) into the target. */
export function splitServiceData(data: Record<string, unknown>, target: TargetInput | undefined): { data: Record<string, unknown>; target: TargetInput } {
  const merged: TargetInput = dict(target ?? {});
  const rest = dict<unknown>();
  for (const [k, v] of Object.entries(data)) {
    if (k === "entity_id" || k === "device_id" || k === "area_id" || k === "floor_id" || k === "label_id") {
      merged[k] = [...asList(merged[k]), ...asList(v)];
    } else rest[k] = v;
  }
  return { data: rest, target: merged };
}
