import type { Clock } from "./common/index.js";
import type { HassConfig, HassContext, HassState } from "./common/index.js";
import { Bus, SimEvent } from "./bus.js";
import type { SimHome } from "./sim-home.js";
import { haConfig } from "./ha-config.js";
import { HouseEntitySchema, type House, type HouseEntity, type HouseEntityInput } from "./house-schema.js";
import type { AutomationEngine } from "./automations/index.js";
import { energyMetersOf } from "./energy/index.js";
import { initialChangedMs } from "./history/index.js";
import { HomeRegistryEdits } from "./home-registries.js";
import { pickOld, registryEntry, type SimEntityEntry } from "./registries.js";
import { makeState, sameValue, type SimState } from "./state.js";
import { stableMs } from "./time.js";
import { createUlidFactory } from "./ulid.js";
import { SimulatorError } from "./errors.js";
import { ExposureSettings } from "./exposure.js";

/** Keeps memory bounded when benchmarks push millions of changes. */
const MAX_RECORDED_PER_ENTITY = 2000;
const MAX_REMEMBERED_CALLS = 5000;

export class HomeModel extends HomeRegistryEdits implements SimHome {
  readonly bus = new Bus();
  readonly house: House;
  readonly startedMs: number;
  /** When the house's registry entries and config entries were made (epoch seconds): 30 days before start. */
  readonly createdAt: number;
  private readonly stateMap = new Map<string, SimState>();
  /** Live changes since start, per entity, for history and logbook. */
  readonly recorded = new Map<string, SimState[]>();
  /** Recent service calls by context id, so the logbook can say what caused a change. */
  readonly serviceCalls = new Map<string, { domain: string; service: string }>();
  /** Entities that existed in the house document, with their scene or script definitions. */
  readonly definitions = new Map<string, HouseEntity>();
  /** Voice-assistant exposure, as set on HA's Expose page. */
  readonly exposure = new ExposureSettings();
  /** Automations and scripts, once the simulator has set them up; told of every state change. */
  automations: AutomationEngine | undefined;
  private readonly ulid = createUlidFactory();
  private domainSet: Set<string> | undefined;

  constructor(
    house: House,
    private readonly clock: Clock,
  ) {
    super();
    this.house = house;
    this.startedMs = clock.now();
    this.createdAt = (this.startedMs - 30 * 86_400_000) / 1000;
    const createdAt = this.createdAt;
    const r = this.registries;
    for (const f of house.floors) r.floors.set(f.floor_id, { ...f, created_at: createdAt, modified_at: createdAt });
    for (const l of house.labels) r.labels.set(l.label_id, { ...l, created_at: createdAt, modified_at: createdAt });
    for (const a of house.areas) r.areas.set(a.area_id, { ...a, created_at: createdAt, modified_at: createdAt });
    for (const c of house.config_entries) r.configEntries.set(c.entry_id, c);
    const meters = energyMetersOf(this);
    for (const d of house.devices) r.devices.set(d.id, { ...this.withParentEntry(d, house.devices), created_at: createdAt, modified_at: createdAt });
    for (const e of house.entities) {
      this.definitions.set(e.entity_id, e);
      if (e.registry) r.entities.set(e.entity_id, registryEntry(e, createdAt));
      // Disabled entities have no state in HA.
      if (e.registry?.disabled_by) continue;
      const changedMs = stableMs(initialChangedMs(house, e, this.startedMs));
      const context = { id: this.ulid(changedMs), parent_id: null, user_id: null };
      // A modelled meter reads what its model says at start (a daily meter: what flowed since midnight).
      const state = meters.isDaily(e.entity_id) ? meters.stateText(e.entity_id, this.startedMs) : e.state;
      this.stateMap.set(e.entity_id, makeState({ entityId: e.entity_id, state, attributes: e.attributes, changedMs, updatedMs: changedMs, context }));
    }
  }

  now(): number {
    return this.clock.now();
  }

  newContext(userId: string | null = null, parentId: string | null = null): HassContext {
    return { id: this.ulid(this.clock.now()), parent_id: parentId, user_id: userId };
  }

  record(entityId: string): SimState | undefined {
    return this.stateMap.get(entityId);
  }

  records(): IterableIterator<SimState> {
    return this.stateMap.values();
  }

  getState(entityId: string): HassState | undefined {
    return this.stateMap.get(entityId)?.wire;
  }

  states(): HassState[] {
    return Array.from(this.stateMap.values(), (s) => s.wire);
  }

  config(version: string): HassConfig {
    const domains = new Set(this.domains());
    for (const entry of this.registries.configEntries.values()) domains.add(entry.domain);
    return haConfig(this.house.config, version, domains);
  }

  setState(entityId: string, state: string, attributes?: Record<string, unknown>): void {
    this.applyState(entityId, state, attributes, this.newContext());
  }

  /** Sets a state with a given context; returns whether anything changed (HA fires nothing otherwise). */
  applyState(entityId: string, state: string, attributes: Record<string, unknown> | undefined, context: HassContext): boolean {
    const old = this.stateMap.get(entityId);
    const attrs = attributes ?? old?.wire.attributes ?? {};
    const sameState = old !== undefined && old.wire.state === state;
    if (sameState && sameValue(attrs, old.wire.attributes)) return false;
    const nowMs = stableMs(this.clock.now());
    const next = makeState({
      entityId,
      state,
      attributes: attributes === undefined ? attrs : { ...attrs },
      changedMs: sameState && old ? old.changedMs : nowMs,
      updatedMs: nowMs,
      context,
    });
    this.stateMap.set(entityId, next);
    if (!old) this.domainSet = undefined;
    this.remember(entityId, next);
    this.fireStateChanged(entityId, old, next, context);
    this.automations?.onStateChanged(entityId, old?.wire, next.wire, context);
    return true;
  }

  /** Removes the entity's state, if it has one, and tells subscribers (an `r` diff); returns the removed state. */
  private dropState(entityId: string): SimState | undefined {
    const old = this.stateMap.get(entityId);
    if (!old) return undefined;
    this.stateMap.delete(entityId);
    this.domainSet = undefined;
    const context = this.newContext();
    this.fireStateChanged(entityId, old, undefined, context);
    this.automations?.onStateChanged(entityId, old.wire, undefined, context);
    return old;
  }

  /** The domains that have at least one state. Cached until an entity appears or goes. */
  domains(): ReadonlySet<string> {
    if (!this.domainSet) {
      this.domainSet = new Set();
      for (const id of this.stateMap.keys()) this.domainSet.add(id.slice(0, id.indexOf(".")));
    }
    return this.domainSet;
  }

  /** Moves every modelled meter to its reading at `nowMs`, as a real meter's updates would. */
  advanceMeters(nowMs: number): void {
    const meters = energyMetersOf(this);
    for (const id of meters.ids()) {
      const current = this.stateMap.get(id);
      const next = meters.stateText(id, nowMs);
      if (current && current.wire.state !== next) this.applyState(id, next, undefined, this.newContext());
    }
  }

  rememberServiceCall(contextId: string, domain: string, service: string): void {
    this.serviceCalls.set(contextId, { domain, service });
    if (this.serviceCalls.size > MAX_REMEMBERED_CALLS) this.serviceCalls.delete(this.serviceCalls.keys().next().value as string);
  }

  private remember(entityId: string, s: SimState): void {
    let list = this.recorded.get(entityId);
    if (!list) this.recorded.set(entityId, (list = []));
    list.push(s);
    if (list.length > MAX_RECORDED_PER_ENTITY) list.splice(0, list.length - MAX_RECORDED_PER_ENTITY);
  }

  private fireStateChanged(entityId: string, oldState: SimState | undefined, newState: SimState | undefined, context: HassContext): void {
    if (!this.bus.hasListeners("state_changed")) return;
    const data = { entity_id: entityId, old_state: oldState?.wire ?? null, new_state: newState?.wire ?? null };
    this.bus.fire(new SimEvent("state_changed", data, this.clock.now(), context, { entityId, oldState, newState }));
  }

  fireEvent(eventType: string, data: Record<string, unknown> = {}, context: HassContext = this.newContext()): void {
    this.bus.fire(new SimEvent(eventType, data, this.clock.now(), context));
  }

  addEntity(input: HouseEntityInput): void {
    const e = HouseEntitySchema.parse(input);
    if (this.definitions.has(e.entity_id) || this.stateMap.has(e.entity_id)) {
      throw new SimulatorError("entity_exists", `Entity ${e.entity_id} already exists; remove it first or pick another entity_id.`);
    }
    this.definitions.set(e.entity_id, e);
    if (e.registry) {
      this.registries.entities.set(e.entity_id, registryEntry(e, this.clock.now() / 1000));
      this.fireEvent("entity_registry_updated", { action: "create", entity_id: e.entity_id });
    }
    if (!e.registry?.disabled_by) this.applyState(e.entity_id, e.state, e.attributes, this.newContext());
  }

  /** Whether the house defines the entity or the registry has it, with or without a state now. */
  knows(entityId: string): boolean {
    return this.definitions.has(entityId) || this.registries.entities.has(entityId);
  }

  /** Registers an entity that exists already (an automation that got an id). */
  registerEntity(entityId: string, registry: NonNullable<HouseEntityInput["registry"]>): void {
    const e = HouseEntitySchema.parse({ entity_id: entityId, registry });
    this.registries.entities.set(entityId, registryEntry(e, this.clock.now() / 1000));
    this.fireEvent("entity_registry_updated", { action: "create", entity_id: entityId });
  }

  /** Removes the state only, as HA unloads an entity on reload: its registry entry stays. */
  unloadEntity(entityId: string): void {
    this.dropState(entityId);
  }

  removeEntity(entityId: string): void {
    const old = this.stateMap.get(entityId);
    const hadEntry = this.registries.entities.delete(entityId);
    this.definitions.delete(entityId);
    if (!old && !hadEntry) throw new SimulatorError("entity_not_found", `Entity ${entityId} does not exist.`);
    this.dropState(entityId);
    if (hadEntry) this.fireEvent("entity_registry_updated", { action: "remove", entity_id: entityId });
  }

  updateEntityRegistry(entityId: string, changes: Partial<SimEntityEntry>): void {
    const entry = this.registries.entities.get(entityId);
    if (!entry) throw new SimulatorError("entity_not_found", `Entity ${entityId} has no registry entry.`);
    const newId = changes.entity_id;
    const old = pickOld(entry, changes);
    const updated: SimEntityEntry = { ...entry, ...changes, modified_at: this.clock.now() / 1000 };
    if (newId !== undefined && newId !== entityId) {
      // A rename moves the state: HA removes the old entity id and adds the new one.
      if (this.registries.entities.has(newId)) throw new SimulatorError("entity_exists", `Entity ${newId} already exists.`);
      this.registries.entities.delete(entityId);
      this.registries.entities.set(newId, updated);
      const def = this.definitions.get(entityId);
      this.definitions.delete(entityId);
      if (def) this.definitions.set(newId, { ...def, entity_id: newId });
      const state = this.dropState(entityId);
      if (state) this.applyState(newId, state.wire.state, state.wire.attributes, this.newContext());
      this.fireEvent("entity_registry_updated", { action: "update", entity_id: newId, changes: old, old_entity_id: entityId });
      return;
    }
    this.registries.entities.set(entityId, updated);
    const wasDisabled = entry.disabled_by !== null;
    const isDisabled = updated.disabled_by !== null;
    if (!wasDisabled && isDisabled) {
      this.dropState(entityId);
    } else if (wasDisabled && !isDisabled) {
      const def = this.definitions.get(entityId);
      if (def) this.applyState(entityId, def.state, def.attributes, this.newContext());
    }
    this.fireEvent("entity_registry_updated", { action: "update", entity_id: entityId, changes: old });
  }
}
