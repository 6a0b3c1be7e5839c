import { HouseSchema, type House, type HouseAreaInput, type HouseInput } from "../house-schema.js";
import { demoAutomations, demoRuns } from "./automations.js";
import { buildDevices, configEntryId } from "./build.js";
import { CHILD_DEVICE_DEMO } from "./child-devices.js";
import { extraEntities, SUN_DEVICE, WEATHER_DEVICE } from "./extras.js";
import { demoEnergy, ENERGY_MODELS } from "./energy.js";
import { MODELS } from "./models.js";
import { FLOORS, LABELS, ROOMS } from "./rooms.js";
import { demoSystemLog } from "./system-log.js";

export { around, slug } from "./spec.js";
export { automationId, lastNight } from "./automations.js";

const PLACE = { latitude: 52.3731, longitude: 4.8922, timeZone: "Europe/Amsterdam" };

/**
 * The demo house ("Linden House"): about 350 entities in 17 areas over two
 * floors and the outdoors, 24 h of history, and a system log with real
 * problems. `nowMs` anchors log times and relative timestamps (default: now).
 * Each call returns a fresh copy that callers may change freely.
 */
export function demoHouse(o: { nowMs?: number } = {}): House {
  const nowMs = o.nowMs ?? Date.now();
  const built = buildDevices(ROOMS, new Map([...MODELS, ...ENERGY_MODELS]));
  const entities = [...built.entities, ...CHILD_DEVICE_DEMO.entities, ...extraEntities(nowMs, PLACE)];
  const hallLight = String(entities.find((e) => e.entity_id === "light.hallway_ceiling")?.state ?? "off");
  const { automation_runs, scripted } = demoRuns(nowMs, PLACE, { hallLight });
  const ids = new Set(entities.map((e) => e.entity_id));
  const areas: HouseAreaInput[] = ROOMS.map((r) => ({
    area_id: r.id,
    name: r.name,
    floor_id: r.floor,
    aliases: r.aliases ?? [],
    icon: r.icon,
    labels: r.labels ?? [],
    temperature_entity_id: firstExisting(ids, [`sensor.${r.id}_temperature`]),
    humidity_entity_id: firstExisting(ids, [`sensor.${r.id}_humidity`]),
  }));
  const input: HouseInput = {
    name: "Linden House (HA Agent demo)",
    config: {
      location_name: "Linden House", latitude: PLACE.latitude, longitude: PLACE.longitude, elevation: 2, radius: 100, time_zone: PLACE.timeZone,
      country: "NL", currency: "EUR", language: "en", unit_system: "metric",
    },
    floors: FLOORS,
    areas,
    labels: LABELS,
    config_entries: [
      ...built.configEntries,
      { entry_id: configEntryId("met"), domain: "met", title: "Home" },
      { entry_id: configEntryId("sun"), domain: "sun", title: "Sun" },
      { entry_id: configEntryId("shopping_list"), domain: "shopping_list", title: "Shopping list" },
    ],
    devices: [...built.devices, ...CHILD_DEVICE_DEMO.devices, WEATHER_DEVICE, SUN_DEVICE],
    entities,
    history: {
      flapping: ["switch.garden_fountain_pump"],
      outages: [{ entity_id: "sensor.garden_shed_temperature", start_hours_ago: 10, hours: 1.5 }],
      scripted,
    },
    system_log: demoSystemLog(nowMs),
    automations: demoAutomations(),
    automation_runs,
    energy: demoEnergy(),
  };
  return HouseSchema.parse(input);
}

function firstExisting(ids: Set<string>, candidates: string[]): string | null {
  return candidates.find((c) => ids.has(c)) ?? null;
}
