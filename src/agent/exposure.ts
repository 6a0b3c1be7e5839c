import type { IndexedEntity } from "../indexer/index.js";

// Home Assistant's defaults for an entity nobody set exposure for
// (homeassistant/components/homeassistant/exposed_entities.py).
const DEFAULT_EXPOSED_DOMAINS = new Set(["climate", "cover", "fan", "humidifier", "light", "lock", "scene", "script", "switch", "todo", "vacuum", "water_heater"]);
const DEFAULT_EXPOSED_BINARY_SENSOR_CLASSES = new Set(["door", "garage_door", "lock", "motion", "opening", "presence", "window"]);
const DEFAULT_EXPOSED_SENSOR_CLASSES = new Set(["aqi", "carbon_monoxide", "carbon_dioxide", "humidity", "pm10", "pm25", "temperature", "volatile_organic_compounds"]);
/** Never exposed to any assistant. */
const NEVER_EXPOSED = new Set(["group.all_automations", "group.all_covers", "group.all_fans", "group.all_lights", "group.all_locks", "group.all_remotes", "group.all_scripts", "group.all_switches", "group.all_vacuum_cleaners"]);

/** What `homeassistant/expose_entity/list` and `expose_new_entities/get` say for Assist ("conversation"). */
export interface AssistExposure {
  /** Explicit settings: entity id → exposed to Assist or not. */
  explicit: ReadonlyMap<string, boolean>;
  /** Whether entities without a setting get HA's defaults (`expose_new`). */
  exposeNew: boolean;
}

/** HA's default for an entity with no explicit setting, as `_is_default_exposed` decides it. */
export function exposedByDefault(e: Pick<IndexedEntity, "domain" | "deviceClass" | "entityCategory" | "hidden">): boolean {
  if (e.entityCategory !== null || e.hidden) return false;
  if (DEFAULT_EXPOSED_DOMAINS.has(e.domain)) return true;
  if (e.domain === "binary_sensor") return e.deviceClass !== null && DEFAULT_EXPOSED_BINARY_SENSOR_CLASSES.has(e.deviceClass);
  if (e.domain === "sensor") return e.deviceClass !== null && DEFAULT_EXPOSED_SENSOR_CLASSES.has(e.deviceClass);
  return false;
}

/** `async_should_expose` for Assist: an explicit setting wins, then the defaults if new entities are exposed. */
export function isExposedToAssist(exposure: AssistExposure, e: Pick<IndexedEntity, "entityId" | "domain" | "deviceClass" | "entityCategory" | "hidden">): boolean {
  if (NEVER_EXPOSED.has(e.entityId)) return false;
  const explicit = exposure.explicit.get(e.entityId);
  if (explicit !== undefined) return explicit;
  return exposure.exposeNew && exposedByDefault(e);
}
