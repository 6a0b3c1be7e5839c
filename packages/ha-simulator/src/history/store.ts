import { energyMetersOf } from "../energy/index.js";
import type { HassState } from "../common/index.js";
import type { House, HouseEntity } from "../house-schema.js";
import type { Registries } from "../registries.js";
import type { SimState } from "../state.js";
import { stableMs } from "../time.js";
import { generateHistory, type HistoryPoint } from "./generate.js";
import { initialChangedMs } from "./timeline.js";

/**
 * What the recorder reads of a home. RecordedHome has all of it; naming it here
 * keeps the recorder beneath the home, which asks it for start times.
 */
export interface RecordedHome {
  readonly house: House;
  readonly startedMs: number;
  /** Every state an entity has had since start. */
  readonly recorded: ReadonlyMap<string, SimState[]>;
  readonly registries: Registries;
  /** The service call behind each context id, for logbook entries. */
  readonly serviceCalls: ReadonlyMap<string, { domain: string; service: string }>;
  /** The current state, if the entity has one. */
  getState(entityId: string): HassState | undefined;
}

/**
 * The recorder: generated history before the simulator started, followed by
 * every change since. Generated series are built on first use per entity,
 * so a 10,000-entity house costs nothing until someone asks.
 */
export class HistoryStore {
  private readonly generated = new Map<string, HistoryPoint[]>();
  private readonly original: Map<string, HouseEntity>;

  constructor(private readonly home: RecordedHome) {
    this.original = new Map(home.house.entities.filter((e) => !e.registry?.disabled_by).map((e) => [e.entity_id, e]));
  }

  /** Every known entity id, including ones removed since start. */
  entityIds(): string[] {
    const ids = new Set(this.original.keys());
    for (const id of this.home.recorded.keys()) ids.add(id);
    return [...ids];
  }

  series(entityId: string): HistoryPoint[] {
    let past = this.generated.get(entityId);
    if (!past) {
      const entity = this.original.get(entityId);
      past = entity
        ? generateHistory({
            house: this.home.house,
            entity,
            changedMs: stableMs(initialChangedMs(this.home.house, entity, this.home.startedMs)),
            startedMs: this.home.startedMs,
            meters: energyMetersOf(this.home),
          })
        : [];
      this.generated.set(entityId, past);
    }
    const live = this.home.recorded.get(entityId);
    if (!live || live.length === 0) return past;
    return [
      ...past,
      ...live.map((s) => ({ state: s.wire.state, attributes: s.wire.attributes, changedMs: s.changedMs, updatedMs: s.updatedMs, context: s.wire.context })),
    ];
  }
}

const stores = new WeakMap<RecordedHome, HistoryStore>();

/** One recorder per home, made on first use. */
export function historyOf(home: RecordedHome): HistoryStore {
  let store = stores.get(home);
  if (!store) stores.set(home, (store = new HistoryStore(home)));
  return store;
}
