import { stringify } from "yaml";
import type { IndexedEntity } from "../../src/indexer/index.js";

// Home Assistant's default exposure to Assist for an entity nobody configured
// (homeassistant/components/homeassistant/exposed_entities.py).
const DEFAULT_EXPOSED_DOMAINS = new Set(["climate", "cover", "fan", "humidifier", "light", "lock", "scene", "script", "switch", "todo", "vacuum", "water_heater"]);
const DEFAULT_EXPOSED_BINARY_SENSOR_CLASSES = new Set(["door", "garage_door", "lock", "motion", "opening", "presence", "window"]);
const DEFAULT_EXPOSED_SENSOR_CLASSES = new Set(["aqi", "carbon_monoxide", "carbon_dioxide", "humidity", "pm10", "pm25", "temperature", "volatile_organic_compounds"]);

export function exposedByDefault(e: IndexedEntity): boolean {
  if (e.entityCategory !== null || e.hidden) return false;
  if (DEFAULT_EXPOSED_DOMAINS.has(e.domain)) return true;
  if (e.domain === "binary_sensor") return e.deviceClass !== null && DEFAULT_EXPOSED_BINARY_SENSOR_CLASSES.has(e.deviceClass);
  if (e.domain === "sensor") return e.deviceClass !== null && DEFAULT_EXPOSED_SENSOR_CLASSES.has(e.deviceClass);
  return false;
}

/**
 * The static context Home Assistant's Assist API puts in every prompt
 * (helpers/llm.py, `_get_exposed_entities` with include_state=False): one
 * YAML item per exposed entity with its names, domain and areas, sorted by
 * name, scripts and calendars left out. Area aliases are not in our index,
 * so this slightly understates HA's size, which makes our ratio stricter.
 */
export function assistStaticContext(entities: readonly IndexedEntity[]): string {
  const exposed = entities.filter((e) => e.state && exposedByDefault(e) && e.domain !== "script" && e.domain !== "calendar");
  exposed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const items = exposed.map((e) => ({ names: [e.name, ...e.aliases].join(", "), domain: e.domain, ...(e.areaName ? { areas: e.areaName } : {}) }));
  return `Static Context: An overview of the areas and the devices in this smart home:\n${stringify(items)}`;
}
