/**
 * The labelled query set for `bench:index` and the recall test, written for
 * the simulator's generated home (`generateHouse`). Generated homes differ
 * with their size, so a query's expected entities are stated as an intent
 * ("lights in the kitchen") and resolved against the house document with
 * plain filters that share no code with the index. Name queries pick one
 * concrete entity the same way.
 */
import type { House } from "@ha-agent/ha-simulator";
import type { LabelledQuery } from "./recall.js";

export const QUERY_SEED = 1;

/** What the expected entities have in common. Every field must hold. */
interface Intent {
  area?: string;
  floor?: string;
  domain?: string;
  deviceClass?: string;
  manufacturer?: string;
  label?: string;
}

type Template =
  | { query: string; kind: string; expect: Intent }
  | { kind: string; pick: Intent; as: "name" | "lower" | "typo" | "entity_id" | "words" };

const T = (query: string, kind: string, expect: Intent): Template => ({ query, kind, expect });
const P = (kind: string, pick: Intent, as: "name" | "lower" | "typo" | "entity_id" | "words"): Template => ({ kind, pick, as });

const TEMPLATES: Template[] = [
  // area + domain or device-class words
  T("kitchen lights", "area+domain", { area: "kitchen", domain: "light" }),
  T("living room lights", "area+domain", { area: "living_room", domain: "light" }),
  T("bedroom lights", "area+domain", { area: "bedroom", domain: "light" }),
  T("office lights", "area+domain", { area: "office", domain: "light" }),
  T("kitchen 2 lights", "area+domain", { area: "kitchen_2", domain: "light" }),
  T("bedroom temperature", "area+class", { area: "bedroom", deviceClass: "temperature" }),
  T("bathroom humidity", "area+class", { area: "bathroom", deviceClass: "humidity" }),
  T("office motion", "area+class", { area: "office", deviceClass: "motion" }),
  T("hallway illuminance", "area+class", { area: "hallway", deviceClass: "illuminance" }),
  T("lab plugs", "area+class", { area: "lab", deviceClass: "outlet" }),
  T("workshop power", "area+class", { area: "workshop", deviceClass: "power" }),
  T("storage pressure", "area+class", { area: "storage", deviceClass: "atmospheric_pressure" }),
  T("lobby lights", "area+domain", { area: "lobby", domain: "light" }),
  T("garage 2 temperature", "area+class", { area: "garage_2", deviceClass: "temperature" }),
  T("meeting room lights", "area+domain", { area: "meeting_room", domain: "light" }),
  T("office 2 humidity", "area+class", { area: "office_2", deviceClass: "humidity" }),
  // area aliases
  T("lounge lights", "area alias", { area: "living_room", domain: "light" }),
  T("lounge temperature", "area alias", { area: "living_room", deviceClass: "temperature" }),
  T("lounge motion", "area alias", { area: "living_room", deviceClass: "motion" }),
  // typos
  T("kichen lights", "typo", { area: "kitchen", domain: "light" }),
  T("bedrom temperature", "typo", { area: "bedroom", deviceClass: "temperature" }),
  T("livng room lights", "typo", { area: "living_room", domain: "light" }),
  T("ofifce motion", "typo", { area: "office", deviceClass: "motion" }),
  T("batroom humidity", "typo", { area: "bathroom", deviceClass: "humidity" }),
  T("hallway ilumminance", "typo", { area: "hallway", deviceClass: "illuminance" }),
  T("kitchen temprature", "typo", { area: "kitchen", deviceClass: "temperature" }),
  T("workshop humidty", "typo", { area: "workshop", deviceClass: "humidity" }),
  // floors (generated homes above 2,500 entities have more than one)
  T("upstairs lights", "floor", { floor: "floor_1", domain: "light" }),
  T("downstairs motion", "floor", { floor: "floor_0", deviceClass: "motion" }),
  T("ground floor locks", "floor", { floor: "floor_0", domain: "lock" }),
  T("floor 2 thermostats", "floor", { floor: "floor_2", domain: "climate" }),
  T("floor 3 blinds", "floor", { floor: "floor_3", domain: "cover" }),
  T("upstairs temperature", "floor", { floor: "floor_1", deviceClass: "temperature" }),
  // manufacturers and models
  T("signify lights", "manufacturer", { manufacturer: "Signify Netherlands B.V.", domain: "light" }),
  T("shelly plugs", "manufacturer", { manufacturer: "Shelly", deviceClass: "outlet" }),
  T("danfoss thermostat", "manufacturer", { manufacturer: "Danfoss", domain: "climate" }),
  T("sonos speakers", "manufacturer", { manufacturer: "Sonos", domain: "media_player" }),
  T("nuki lock", "manufacturer", { manufacturer: "Nuki", domain: "lock" }),
  T("ikea fan", "manufacturer", { manufacturer: "IKEA of Sweden", domain: "fan" }),
  T("lumi motion", "manufacturer", { manufacturer: "LUMI", deviceClass: "motion" }),
  T("lumi temperature", "manufacturer", { manufacturer: "LUMI", deviceClass: "temperature" }),
  // labels
  T("security", "label", { label: "security" }),
  T("kids", "label", { label: "kids" }),
  T("guest", "label", { label: "guest" }),
  T("outdoor", "label", { label: "outdoor" }),
  T("maintenance", "label", { label: "maintenance" }),
  T("critical", "label", { label: "critical" }),
  T("network", "label", { label: "network" }),
  T("solar", "label", { label: "solar" }),
  T("water", "label", { label: "water" }),
  T("critical lights", "label", { label: "critical", domain: "light" }),
  // domain words
  T("locks", "domain", { domain: "lock" }),
  T("thermostats", "domain", { domain: "climate" }),
  T("blinds", "domain", { domain: "cover" }),
  T("fans", "domain", { domain: "fan" }),
  T("speakers", "domain", { domain: "media_player" }),
  T("motion sensors", "domain", { deviceClass: "motion" }),
  T("plugs", "domain", { deviceClass: "outlet" }),
  T("covers", "domain", { domain: "cover" }),
  // one entity by its name, id or a misspelling of it
  P("name", { area: "kitchen", domain: "light" }, "name"),
  P("name", { area: "office", domain: "switch" }, "lower"),
  P("name", { area: "bedroom", deviceClass: "temperature" }, "name"),
  P("name", { area: "garage", domain: "lock" }, "lower"),
  P("name", { area: "lobby", deviceClass: "motion" }, "name"),
  P("name", { area: "workshop", domain: "cover" }, "lower"),
  P("name", { domain: "media_player" }, "name"),
  P("name typo", { area: "hallway", domain: "light" }, "typo"),
  P("name typo", { area: "living_room", deviceClass: "humidity" }, "typo"),
  P("name typo", { area: "storage", deviceClass: "illuminance" }, "typo"),
  P("entity id", { area: "lab", domain: "switch" }, "entity_id"),
  P("entity id", { area: "bathroom", deviceClass: "temperature" }, "entity_id"),
  P("object id words", { area: "meeting_room", domain: "light" }, "words"),
  P("object id words", { domain: "climate" }, "words"),
];

interface Fact {
  id: string;
  name: string;
  domain: string;
  area: string | null;
  floor: string | null;
  deviceClass: string | null;
  manufacturer: string | null;
  labels: string[];
}

/** The entities a user sees by default (not disabled, hidden or diagnostic/config), as plain facts. */
function facts(house: House): Fact[] {
  const devices = new Map(house.devices.map((d) => [d.id, d]));
  const areas = new Map(house.areas.map((a) => [a.area_id, a]));
  const out: Fact[] = [];
  for (const e of house.entities) {
    const r = e.registry;
    if (r && (r.disabled_by || r.hidden_by || r.entity_category)) continue;
    const device = r?.device_id ? devices.get(r.device_id) : undefined;
    const areaId = r?.area_id ?? device?.area_id ?? null;
    const area = areaId ? areas.get(areaId) : undefined;
    const dc = e.attributes.device_class;
    out.push({
      id: e.entity_id,
      name: typeof e.attributes.friendly_name === "string" ? e.attributes.friendly_name : e.entity_id,
      domain: e.entity_id.split(".")[0]!,
      area: areaId,
      floor: area?.floor_id ?? null,
      deviceClass: typeof dc === "string" ? dc : null,
      manufacturer: device?.manufacturer ?? null,
      labels: [...(r?.labels ?? []), ...(device?.labels ?? []), ...(area?.labels ?? [])],
    });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

function holds(f: Fact, i: Intent): boolean {
  return (
    (!i.area || f.area === i.area) &&
    (!i.floor || f.floor === i.floor) &&
    (!i.domain || f.domain === i.domain) &&
    (!i.deviceClass || f.deviceClass === i.deviceClass) &&
    (!i.manufacturer || f.manufacturer === i.manufacturer) &&
    (!i.label || f.labels.includes(i.label))
  );
}

/** A one-edit misspelling: the third and fourth letters of the longest word swapped ("Kitchen" → "Kicthen"). */
function typo(name: string): string {
  const words = name.split(" ");
  let longest = 0;
  for (let i = 1; i < words.length; i++) if (words[i]!.length > words[longest]!.length) longest = i;
  const w = words[longest]!;
  if (w.length >= 5) words[longest] = w.slice(0, 2) + w[3] + w[2] + w.slice(4);
  return words.join(" ");
}

/** The query set for one house: templates whose intent matches nothing in it are left out. */
export function querySetFor(house: House): LabelledQuery[] {
  const all = facts(house);
  const out: LabelledQuery[] = [];
  for (const t of TEMPLATES) {
    if ("expect" in t) {
      const expected = all.filter((f) => holds(f, t.expect)).map((f) => f.id);
      if (expected.length) out.push({ query: t.query, kind: t.kind, expected });
      continue;
    }
    const chosen = all.find((f) => holds(f, t.pick));
    if (!chosen) continue;
    const query =
      t.as === "name"
        ? chosen.name
        : t.as === "lower"
          ? chosen.name.toLowerCase()
          : t.as === "typo"
            ? typo(chosen.name)
            : t.as === "entity_id"
              ? chosen.id
              : chosen.id.split(".")[1]!.replace(/_/g, " ");
    out.push({ query, kind: t.kind, expected: [chosen.id] });
  }
  return out;
}
