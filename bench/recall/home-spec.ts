/**
 * The homes of the recall corpus, written compactly and turned into the
 * simulator's house document, so each home is served by the simulator and
 * indexed exactly as a real one would be.
 */
import type { HouseInput } from "@ha-agent/ha-simulator";

export interface EntitySpec {
  id: string;
  name: string;
  state: string;
  attrs?: Record<string, unknown>;
  aliases?: string[];
  /** Hidden, diagnostic or config: left out of search unless asked for. */
  secondary?: "hidden" | "diagnostic" | "config";
  /** An area of its own, overriding its device's. */
  area?: string;
}

export interface ThingSpec {
  /** Device name; absent for an entity without a device (a helper, a todo list). */
  device?: string;
  area?: string;
  maker?: string;
  model?: string;
  entities: EntitySpec[];
}

export interface HomeSpec {
  id: string;
  /** The language its owners speak, as the intents repository names it ("en", "pl", "zh-cn"). */
  language: string;
  title: string;
  floors: { id: string; name: string; level: number; aliases?: string[] }[];
  areas: { id: string; name: string; floor: string | null; aliases?: string[] }[];
  things: ThingSpec[];
  /** Words to fill the templates' free-text slots with, in the home's language. */
  fill: { items: string[]; media: string[] };
}

export const e = (id: string, name: string, state: string, attrs: Record<string, unknown> = {}, more: Partial<EntitySpec> = {}): EntitySpec => ({ id, name, state, attrs, ...more });

/** Device classes and units as HA puts them in the state attributes. */
export const dc = (device_class: string, unit?: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  device_class,
  ...(unit ? { unit_of_measurement: unit, state_class: "measurement" } : {}),
  ...extra,
});

function slug(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || "x";
}

/** The simulator's house document for a home. */
export function houseOf(spec: HomeSpec): HouseInput {
  const devices: NonNullable<HouseInput["devices"]> = [];
  const entities: HouseInput["entities"] = [];
  const entry = { entry_id: `entry_${spec.id}`, domain: "demo", title: spec.title };
  spec.things.forEach((t, i) => {
    const deviceId = t.device ? `dev_${spec.id}_${i}_${slug(t.device)}` : null;
    if (t.device && deviceId) {
      devices.push({
        id: deviceId,
        name: t.device,
        manufacturer: t.maker ?? null,
        model: t.model ?? null,
        area_id: t.area ?? null,
        config_entry_id: entry.entry_id,
      });
    }
    for (const en of t.entities) {
      const secondary = en.secondary;
      entities.push({
        entity_id: en.id,
        state: en.state,
        attributes: { ...en.attrs, friendly_name: en.name },
        registry: {
          platform: "demo",
          unique_id: `${spec.id}:${en.id}`,
          device_id: deviceId,
          area_id: en.area ?? (deviceId ? null : (t.area ?? null)),
          config_entry_id: entry.entry_id,
          aliases: en.aliases ?? [],
          hidden_by: secondary === "hidden" ? "user" : null,
          entity_category: secondary === "diagnostic" || secondary === "config" ? secondary : null,
        },
      });
    }
  });
  return {
    name: spec.title,
    config: { location_name: spec.title, language: spec.language.split("-")[0]! },
    floors: spec.floors.map((f) => ({ floor_id: f.id, name: f.name, level: f.level, aliases: f.aliases ?? [] })),
    areas: spec.areas.map((a) => ({ area_id: a.id, name: a.name, floor_id: a.floor, aliases: a.aliases ?? [] })),
    labels: [],
    config_entries: [entry],
    devices,
    entities,
  };
}

/** What the generator and the hand-written requests know of an entity: plain facts, no index code. */
export interface EntityFact {
  id: string;
  name: string;
  domain: string;
  area: string | null;
  areaName: string | null;
  floor: string | null;
  deviceClass: string | null;
  unit: string | null;
  state: string;
  secondary: boolean;
}

export function factsOf(spec: HomeSpec): EntityFact[] {
  const areas = new Map(spec.areas.map((a) => [a.id, a]));
  const out: EntityFact[] = [];
  for (const t of spec.things) {
    for (const en of t.entities) {
      const area = en.area ?? t.area ?? null;
      const attrs = en.attrs ?? {};
      out.push({
        id: en.id,
        name: en.name,
        domain: en.id.split(".")[0]!,
        area,
        areaName: area ? (areas.get(area)?.name ?? null) : null,
        floor: area ? (areas.get(area)?.floor ?? null) : null,
        deviceClass: typeof attrs.device_class === "string" ? attrs.device_class : null,
        unit: typeof attrs.unit_of_measurement === "string" ? attrs.unit_of_measurement : null,
        state: en.state,
        secondary: en.secondary !== undefined,
      });
    }
  }
  return out;
}
