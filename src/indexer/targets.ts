import type { EntityStructure, LiveState } from "./model.js";
import type { ResolvedRegistries } from "./resolve.js";

/** The keys of a Home Assistant service target. */
export const TARGET_KINDS = ["entity_id", "device_id", "area_id", "floor_id", "label_id"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A service target with every field as a list of ids. */
export type TargetIds = Partial<Record<TargetKind, readonly string[]>>;

export interface TargetResolution {
  /** What a call would act on: the entities named, in order, then those reached through the rest, by id. */
  entityIds: string[];
  /** Ids that name nothing in the home. */
  missing: { kind: TargetKind; id: string }[];
  /** Entities named directly that Home Assistant has no state for (disabled or not loaded). */
  unavailable: string[];
  /** Entities named directly that are not of the service's domain, which acts only on its own. */
  otherDomain: string[];
}

/** How deep old-style groups are followed; deeper nesting is a loop or a mistake. */
const GROUP_DEPTH = 8;

const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf("."));

/**
 * Expands a target the way Home Assistant does for a service call. Entities
 * named in `entity_id` count as given, and an old-style `group.*` among them
 * stands for its members. A device also covers its child devices. A floor
 * covers its areas; an area covers the entities in it and the entities of
 * its devices that have no area of their own; a label covers the entities,
 * devices and areas that carry it. Entities reached through a device, area
 * or floor leave out hidden ones and config or diagnostic ones; through a
 * label on the entity itself only hidden ones.
 *
 * When `domain` has entities in the home (light, switch, …), its services act
 * only on entities of that domain, so what is reached is narrowed to it and
 * an entity of another domain named directly is reported. Other domains
 * (homeassistant, integrations' own services) keep everything.
 */
export function resolveTarget(args: {
  target: TargetIds;
  domain?: string;
  reg: ResolvedRegistries;
  structures: ReadonlyMap<string, EntityStructure>;
  states: ReadonlyMap<string, LiveState>;
}): TargetResolution {
  const { target, reg, structures, states } = args;
  const entityDomain = args.domain !== undefined && hasDomain(structures, args.domain) ? args.domain : undefined;
  const inDomain = (id: string) => entityDomain === undefined || domainOf(id) === entityDomain;
  const out: TargetResolution = { entityIds: [], missing: [], unavailable: [], otherDomain: [] };
  const named = new Set<string>();
  const reached = new Set<string>();

  for (const id of target.entity_id ?? []) {
    const members = args.domain !== "group" ? groupMembers(id, states) : undefined;
    if (members) for (const m of members) reached.add(m);
    else if (!structures.has(id)) out.missing.push({ kind: "entity_id", id });
    else if (!states.has(id)) out.unavailable.push(id);
    else if (!inDomain(id)) out.otherDomain.push(id);
    else named.add(id);
  }

  const devices = new Set<string>();
  const areas = new Set<string>();
  const labels = new Set<string>();
  const children = childDevices(reg);
  for (const id of target.device_id ?? []) {
    if (reg.devices.has(id)) withChildren(id, children, devices);
    else out.missing.push({ kind: "device_id", id });
  }
  for (const id of target.area_id ?? []) {
    if (reg.areas.has(id)) areas.add(id);
    else out.missing.push({ kind: "area_id", id });
  }
  for (const id of target.floor_id ?? []) {
    if (!reg.floors.has(id)) out.missing.push({ kind: "floor_id", id });
    for (const a of reg.areas.values()) if (a.floorId === id) areas.add(a.areaId);
  }
  for (const id of target.label_id ?? []) {
    if (!reg.labels.has(id)) out.missing.push({ kind: "label_id", id });
    labels.add(id);
    for (const d of reg.devices.values()) if (d.labels.includes(id)) withChildren(d.deviceId, children, devices);
    for (const a of reg.areas.values()) if (a.labels.includes(id)) areas.add(a.areaId);
  }

  if (devices.size + areas.size + labels.size > 0) {
    for (const s of structures.values()) {
      if (s.hidden || !states.has(s.entityId)) continue;
      const labelled = reg.entries.get(s.entityId)?.labels.some((l) => labels.has(l)) ?? false;
      // s.areaId is the entity's own area, else its device's: HA's rule for an area target.
      const placed = s.entityCategory === null && ((s.deviceId !== null && devices.has(s.deviceId)) || (s.areaId !== null && areas.has(s.areaId)));
      if (labelled || placed) reached.add(s.entityId);
    }
  }

  out.entityIds = [...named, ...[...reached].filter((id) => !named.has(id) && inDomain(id) && states.has(id)).sort()];
  return out;
}

function hasDomain(structures: ReadonlyMap<string, EntityStructure>, domain: string): boolean {
  for (const s of structures.values()) if (s.domain === domain) return true;
  return false;
}

/** An old-style group's members, followed through nested groups; undefined for anything else. */
function groupMembers(entityId: string, states: ReadonlyMap<string, LiveState>): string[] | undefined {
  if (domainOf(entityId) !== "group") return undefined;
  const out = new Set<string>();
  const seen = new Set<string>();
  const walk = (id: string, depth: number) => {
    const members = states.get(id)?.attributes.entity_id;
    if (seen.has(id) || depth > GROUP_DEPTH || !Array.isArray(members)) return;
    seen.add(id);
    for (const m of members) {
      if (typeof m !== "string") continue;
      if (domainOf(m) === "group") walk(m, depth + 1);
      else out.add(m);
    }
  };
  walk(entityId, 0);
  return seen.size > 0 ? [...out] : undefined;
}

function childDevices(reg: ResolvedRegistries): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const d of reg.devices.values()) {
    if (!d.parentDeviceId) continue;
    const list = children.get(d.parentDeviceId);
    if (list) list.push(d.deviceId);
    else children.set(d.parentDeviceId, [d.deviceId]);
  }
  return children;
}

/** Adds a device and its child devices, and theirs; a malformed parent loop ends. */
function withChildren(deviceId: string, children: ReadonlyMap<string, string[]>, into: Set<string>): void {
  const stack = [deviceId];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (into.has(id)) continue;
    into.add(id);
    stack.push(...(children.get(id) ?? []));
  }
}
