/**
 * What the generator and the benchmark need of a home, whichever way it is
 * written: as a compact spec (homes/*.ts) or as a house document (the
 * simulator's demo house).
 */
import { HouseSchema, type House } from "@ha-agent/ha-simulator";
import { factsOf, houseOf, type EntityFact, type HomeSpec } from "./home-spec.js";

export interface HomeView {
  id: string;
  language: string;
  house: House;
  areas: { id: string; name: string; floor: string | null; aliases: string[] }[];
  floors: { id: string; name: string; aliases: string[] }[];
  facts: EntityFact[];
  fill: { items: string[]; media: string[] };
}

export function viewOfSpec(spec: HomeSpec): HomeView {
  return {
    id: spec.id,
    language: spec.language,
    house: HouseSchema.parse(houseOf(spec)),
    areas: spec.areas.map((a) => ({ ...a, aliases: a.aliases ?? [] })),
    floors: spec.floors.map((f) => ({ ...f, aliases: f.aliases ?? [] })),
    facts: factsOf(spec),
    fill: spec.fill,
  };
}

/** A home from a house document: its entities' facts read as Home Assistant would resolve them. */
export function viewOfHouse(args: { id: string; language: string; house: House; fill: HomeView["fill"] }): HomeView {
  const { house } = args;
  const devices = new Map(house.devices.map((d) => [d.id, d]));
  const areas = new Map(house.areas.map((a) => [a.area_id, a]));
  const facts: EntityFact[] = house.entities.map((e) => {
    const r = e.registry;
    const device = r?.device_id ? devices.get(r.device_id) : undefined;
    const area = r?.area_id ?? device?.area_id ?? null;
    const cls = e.attributes.device_class;
    const unit = e.attributes.unit_of_measurement;
    return {
      id: e.entity_id,
      name: typeof e.attributes.friendly_name === "string" ? e.attributes.friendly_name : e.entity_id,
      domain: e.entity_id.split(".")[0]!,
      area,
      areaName: area ? (areas.get(area)?.name ?? null) : null,
      floor: area ? (areas.get(area)?.floor_id ?? null) : null,
      deviceClass: typeof cls === "string" ? cls : null,
      unit: typeof unit === "string" ? unit : null,
      state: e.state,
      secondary: Boolean(r && (r.hidden_by || r.disabled_by || r.entity_category)),
    };
  });
  return {
    id: args.id,
    language: args.language,
    house,
    areas: house.areas.map((a) => ({ id: a.area_id, name: a.name, floor: a.floor_id, aliases: a.aliases })),
    floors: house.floors.map((f) => ({ id: f.floor_id, name: f.name, aliases: f.aliases })),
    facts,
    fill: args.fill,
  };
}
