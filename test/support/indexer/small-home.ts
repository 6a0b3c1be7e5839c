import type { CompressedState, EntityRegistryEntry } from "../../../src/ha/index.js";
import type { Registries } from "../../../src/indexer/model.js";

/** One entity of a small test home: its id, name, area, state and attributes. */
export interface SmallEntity {
  id: string;
  name: string;
  area?: string;
  state: string;
  attrs?: Record<string, unknown>;
}

/**
 * Registries and a state snapshot for a home written as a list of areas and
 * entities, for tests that need a particular home rather than the fixture's.
 */
export function smallHome(spec: { areas: [id: string, name: string, floor?: string][]; floors?: [id: string, name: string, level: number][]; entities: SmallEntity[] }): {
  registries: Registries;
  states: Record<string, CompressedState>;
} {
  const entry = (e: SmallEntity): EntityRegistryEntry => ({
    id: `reg_${e.id}`,
    entity_id: e.id,
    unique_id: `uid_${e.id}`,
    platform: "test",
    device_id: null,
    area_id: e.area ?? null,
    config_entry_id: null,
    labels: [],
    disabled_by: null,
    hidden_by: null,
    entity_category: null,
    has_entity_name: false,
    original_name: e.name,
    name: null,
    icon: null,
    translation_key: null,
  });
  const registries: Registries = {
    floors: (spec.floors ?? []).map(([floor_id, name, level]) => ({ floor_id, name, level, icon: null, aliases: [] })),
    areas: spec.areas.map(([area_id, name, floor]) => ({ area_id, name, floor_id: floor ?? null, aliases: [], icon: null, labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null })),
    labels: [],
    configEntries: [],
    devices: [],
    entities: spec.entities.map(entry),
    extended: {},
  };
  const states = Object.fromEntries(spec.entities.map((e) => [e.id, { s: e.state, a: { friendly_name: e.name, ...e.attrs }, c: "ctx", lc: 1_700_000_000 } satisfies CompressedState]));
  return { registries, states };
}
