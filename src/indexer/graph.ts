import type { CompressedState, EntitiesMessage } from "../ha/index.js";
import { own } from "../shared/index.js";
import { docFields, floorWords } from "./docs.js";
import { applyStateDiff, toLiveState, touchesStructure } from "./live-state.js";
import { describeField, entityView } from "./entity-view.js";
import type { FieldKey } from "./fields.js";
import { compileFilter, isDefaultFilter, type EntityFilter } from "./filters.js";
import { inStateAsSpoken } from "./in-state.js";
import {
  emptyRegistries,
  type DeviceInfo,
  type EntityStructure,
  type IndexedEntity,
  type LiveState,
  type Registries,
} from "./model.js";
import { traitsOf } from "./kinds.js";
import { areaInText } from "./area-in-text.js";
import { readRequest } from "./reading.js";
import { resolveEntity, resolveRegistries, type ResolvedRegistries } from "./resolve.js";
import { SearchEngine, type SearchEngineOptions, type SearchHit } from "./search.js";
import { SearchIndex, type DocMeta } from "./search-index.js";
import { Vocabulary } from "./vocabulary/index.js";
import { resolveTarget, type TargetIds, type TargetResolution } from "./targets.js";

export interface SearchOptions extends Omit<EntityFilter, "entityIds"> {
  limit?: number;
  /** The area the request was spoken in (id, name or alias): its entities are preferred, not required. */
  nearArea?: string;
}

/** A search hit with what a caller shows: name, area and current state. */
export interface SearchResult extends SearchHit {
  name: string;
  domain: string;
  /** The device class, from the entity's state or its registry entry; null when it has none. */
  deviceClass: string | null;
  areaId: string | null;
  area: string | null;
  state: string | null;
}

const MAIN_ENTITY_PRIOR = 1.04;

/**
 * The home as one in-memory graph: registries, resolved entity structures,
 * live states and the search index over them. Pure data: it does no I/O, so
 * the sync layer feeds it and tests can build it from fixtures.
 */
export class HomeGraph {
  // Only the resolved tables are kept, not the raw registry lists.
  #reg: ResolvedRegistries = resolveRegistries(emptyRegistries());
  #floorWords = new Map<string, string[]>();
  #structures = new Map<string, EntityStructure>();
  /** Domains present, for validating a domain filter; dropped whenever entities come or go. */
  #domains: Set<string> | undefined;
  #sortedIds: string[] | undefined;
  /** Entity ids per area, in id order: an area filter reads its area's entities instead of the whole home. */
  #idsByArea: Map<string, string[]> | undefined;
  #states = new Map<string, LiveState>();
  /**
   * Views built by earlier reads, by the structure they show. A view is
   * reused while its structure, state and registries are the very objects it
   * was built from: every change replaces one of them, and a replaced
   * structure takes its view with it. A state change drops the entity's view
   * too, so a view nobody reads again does not keep the old state alive.
   */
  #views = new WeakMap<EntityStructure, { live: LiveState | undefined; reg: ResolvedRegistries; view: IndexedEntity }>();
  readonly #vocab = new Vocabulary();
  readonly #split = (word: string) => this.#vocab.splitCompound(word);
  #index = new SearchIndex(this.#split);
  readonly #engineOptions: SearchEngineOptions;
  #engine: SearchEngine;
  /** Areas and floors as small numbers for the index; rebuilt with the registries. */
  #areaCodes = new Map<string, number>();
  #floorCodes = new Map<string, number>();

  constructor(options: SearchEngineOptions = {}) {
    this.#engineOptions = options;
    this.#engine = new SearchEngine(this.#index, options);
  }

  /** Replaces all registries and rebuilds every entity from them. */
  setRegistries(registries: Registries): void {
    this.#useRegistries(registries);
    this.#rebuild();
  }

  /**
   * Replaces the extended entity entries (aliases, device-class overrides)
   * and reindexes only the entities whose aliases or class they change.
   */
  setExtended(extended: Registries["extended"]): number {
    this.#reg = { ...this.#reg, extended };
    let changed = 0;
    for (const [id, s] of this.#structures) {
      const ext = own(extended, id);
      if (!ext?.aliases?.length && !ext?.device_class && s.aliases.length === 0) continue;
      const next = resolveEntity(id, this.#reg, this.#states.get(id));
      if (next.deviceClass === s.deviceClass && next.aliases.join("\u0000") === s.aliases.join("\u0000")) continue;
      this.#reindex(id, next);
      changed++;
    }
    return changed;
  }

  /** Replaces registries and states together, rebuilding once. */
  load(registries: Registries, snapshot: Record<string, CompressedState>): void {
    this.#useRegistries(registries);
    this.replaceStates(snapshot);
  }

  /** Replaces all states with a snapshot; entities missing from it lose their state. */
  replaceStates(snapshot: Record<string, CompressedState>): void {
    this.#states = new Map();
    for (const [id, c] of Object.entries(snapshot)) this.#states.set(id, toLiveState(c));
    this.#rebuild();
  }

  /** Applies a `subscribe_entities` diff; returns how many entities it changed. */
  applyDiff(msg: EntitiesMessage): number {
    let count = 0;
    if (msg.a) {
      for (const [id, c] of Object.entries(msg.a)) {
        this.#states.set(id, toLiveState(c));
        this.#reindex(id);
        count++;
      }
    }
    if (msg.r) {
      for (const id of msg.r) {
        this.#states.delete(id);
        this.#dropView(id);
        if (!this.#reg.entries.has(id)) {
          this.#structures.delete(id);
          this.#forgetDerived();
          this.#index.remove(id);
        }
        count++;
      }
    }
    if (msg.c) {
      for (const [id, diff] of Object.entries(msg.c)) {
        const prev = this.#states.get(id);
        if (!prev) continue; // a change for an entity we never saw; the next snapshot will carry it
        this.#states.set(id, applyStateDiff(prev, diff));
        if (touchesStructure(diff)) this.#reindex(id);
        else this.#dropView(id);
        count++;
      }
    }
    if (this.#index.tombstones > 1000 && this.#index.tombstones > this.#index.docCount / 4) this.#rebuildIndex();
    return count;
  }

  /** Entity ids in the entity registry. */
  registeredIds(): string[] {
    return [...this.#reg.entries.keys()];
  }

  /** The extended entries (aliases, class overrides) in use. */
  extended(): Registries["extended"] {
    return this.#reg.extended;
  }

  entity(entityId: string): IndexedEntity | undefined {
    const s = this.#structures.get(entityId);
    return s ? this.#view(s) : undefined;
  }

  /** All states, as HA has them: for comparisons and rendering. */
  states(): ReadonlyMap<string, LiveState> {
    return this.#states;
  }

  /** Entities matching a filter, ordered by entity id. Throws IndexFilterError for names it does not know. */
  query(filter: EntityFilter = {}): IndexedEntity[] {
    const accept = this.#compile(filter);
    const out: IndexedEntity[] = [];
    const ids = filter.entityIds ?? (accept.areaId !== undefined ? (this.#areaIds().get(accept.areaId) ?? []) : (this.#sortedIds ??= [...this.#structures.keys()].sort()));
    for (const id of ids) {
      const s = this.#structures.get(id);
      if (s && accept(s, this.#states.get(id))) out.push(this.#view(s));
    }
    return out;
  }

  search(query: string, opts: SearchOptions = {}): SearchResult[] {
    const { nearArea, limit: wantedLimit, ...filter } = opts;
    const accept = this.#compile(filter);
    const limit = Math.max(1, Math.min(wantedLimit ?? 10, 500));
    const near = nearArea ? this.#nearAreaId(nearArea) : undefined;
    const hits = this.#engine.search(
      {
        reading: readRequest(query, this.#vocab),
        limit,
        nearArea: near !== undefined ? (this.#areaCodes.get(near) ?? -1) : -1,
        nearFloor: near !== undefined ? this.#floorCode(this.#reg.areas.get(near)?.floorId ?? null) : -1,
        ...(near !== undefined ? { nearAreaName: this.#reg.areas.get(near)?.name ?? near } : {}),
      },
      {
        stateOf: (id) => this.#states.get(id)?.state,
        inState: (id, wanted) => {
          const s = this.#structures.get(id);
          return inStateAsSpoken({ state: this.#states.get(id)?.state, domain: s?.domain, deviceClass: s?.deviceClass, wanted });
        },
        accept: (id) => {
          const s = this.#structures.get(id);
          return s !== undefined && accept(s, this.#states.get(id));
        },
        defaultRulesOnly: isDefaultFilter(filter),
        describe: (id, field) => this.#describe(id, field),
      },
    );
    return hits.map((h) => {
      const s = this.#structures.get(h.entityId)!;
      // Every field by name, not `...h`: one object shape for every result.
      return {
        entityId: h.entityId,
        score: h.score,
        why: h.why,
        named: h.named,
        name: s.name,
        domain: s.domain,
        deviceClass: s.deviceClass,
        areaId: s.areaId,
        area: s.areaId ? (this.#reg.areas.get(s.areaId)?.name ?? null) : null,
        state: this.#states.get(h.entityId)?.state ?? null,
      };
    });
  }

  /**
   * The area a near-area preference names: by id, name or alias, or else the
   * area a phrase mentions ("the kitchen, by the window", "kuchni"). Throws
   * IndexFilterError (unknown_area) when it names none.
   */
  #nearAreaId(value: string): string {
    try {
      return this.#compile({ area: value }).areaId!;
    } catch (err) {
      const found = areaInText(value, this.#reg.areas.values());
      if (found) return found;
      throw err;
    }
  }

  devices(): DeviceInfo[] {
    return [...this.#reg.devices.values()];
  }
  device(deviceId: string): DeviceInfo | undefined {
    return this.#reg.devices.get(deviceId);
  }

  /** A service target expanded to entities as Home Assistant expands it (targets.ts). */
  resolveTarget(target: TargetIds, domain?: string): TargetResolution {
    return resolveTarget({ target, ...(domain !== undefined ? { domain } : {}), reg: this.#reg, structures: this.#structures, states: this.#states });
  }

  /** Entity ids on a device, including hidden ones. */
  entitiesOfDevice(deviceId: string): string[] {
    const out: string[] = [];
    for (const s of this.#structures.values()) if (s.deviceId === deviceId) out.push(s.entityId);
    return out.sort();
  }

  /** Sizes of the registries, without copying them (for stats polled by /healthz). */
  counts(): { devices: number; areas: number; floors: number; labels: number } {
    return { devices: this.#reg.devices.size, areas: this.#reg.areas.size, floors: this.#reg.floors.size, labels: this.#reg.labels.size };
  }

  get entityCount(): number {
    return this.#structures.size;
  }

  /** Takes new registries without rebuilding the entities; the caller rebuilds. */
  #useRegistries(registries: Registries): void {
    this.#reg = resolveRegistries(registries);
    this.#floorWords = floorWords(this.#reg.floors);
    this.#areaCodes = new Map([...this.#reg.areas.keys()].map((id, i) => [id, i]));
    this.#floorCodes = new Map([...this.#reg.floors.keys()].map((id, i) => [id, i]));
  }

  #forgetDerived(): void {
    this.#domains = undefined;
    this.#sortedIds = undefined;
    this.#idsByArea = undefined;
  }

  #areaIds(): Map<string, string[]> {
    if (!this.#idsByArea) {
      const byArea = new Map<string, string[]>();
      for (const id of (this.#sortedIds ??= [...this.#structures.keys()].sort())) {
        const areaId = this.#structures.get(id)?.areaId;
        if (!areaId) continue;
        const list = byArea.get(areaId);
        if (list) list.push(id);
        else byArea.set(areaId, [id]);
      }
      this.#idsByArea = byArea;
    }
    return this.#idsByArea;
  }

  #compile(filter: EntityFilter) {
    return compileFilter({
      filter,
      reg: this.#reg,
      floorWords: this.#floorWords,
      domains: () => (this.#domains ??= new Set([...this.#structures.values()].map((s) => s.domain))),
    });
  }

  #view(s: EntityStructure): IndexedEntity {
    const live = this.#states.get(s.entityId);
    const cached = this.#views.get(s);
    if (cached && cached.live === live && cached.reg === this.#reg) return cached.view;
    // Frozen: every reader shares it.
    const view = Object.freeze(entityView(s, this.#reg, live));
    this.#views.set(s, { live, reg: this.#reg, view });
    return view;
  }

  #dropView(id: string): void {
    const s = this.#structures.get(id);
    if (s) this.#views.delete(s);
  }

  #describe(id: string, field: FieldKey): string {
    const s = this.#structures.get(id);
    return s ? describeField(s, this.#reg, field) : field;
  }

  /**
   * A device's main entity (the one named just like the device: the plug's
   * switch, not its power sensor) is what people mean when they name the
   * device, so it edges ahead of its siblings.
   */
  #prior(s: EntityStructure): number {
    const device = s.deviceId ? this.#reg.devices.get(s.deviceId) : undefined;
    return device && device.name === s.name ? MAIN_ENTITY_PRIOR : 1;
  }

  #meta(s: EntityStructure): DocMeta {
    return { tie: s.name.length, prior: this.#prior(s), area: s.areaId ? (this.#areaCodes.get(s.areaId) ?? -1) : -1, floor: this.#floorCode(s.floorId), traits: traitsOf(s) };
  }

  #floorCode(floorId: string | null): number {
    return floorId ? (this.#floorCodes.get(floorId) ?? -1) : -1;
  }

  #reindex(id: string, s = resolveEntity(id, this.#reg, this.#states.get(id))): void {
    this.#structures.set(id, s);
    this.#forgetDerived();
    this.#index.add(id, docFields(s, this.#reg, this.#floorWords), this.#meta(s));
  }

  #rebuild(): void {
    this.#structures = new Map();
    this.#forgetDerived();
    const ids = new Set([...this.#reg.entries.keys(), ...this.#states.keys()]);
    for (const id of ids) this.#structures.set(id, resolveEntity(id, this.#reg, this.#states.get(id)));
    this.#rebuildIndex();
  }

  #rebuildIndex(): void {
    this.#index = new SearchIndex(this.#split);
    this.#engine = new SearchEngine(this.#index, this.#engineOptions);
    for (const s of this.#structures.values()) this.#index.add(s.entityId, docFields(s, this.#reg, this.#floorWords), this.#meta(s));
    this.#index.compact();
    this.#index.warm();
  }
}
