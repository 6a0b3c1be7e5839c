import type { HassConfig } from "./common/index.js";
import type { House } from "./house-schema.js";

const METRIC = { length: "km", accumulated_precipitation: "mm", area: "m²", mass: "g", pressure: "Pa", temperature: "°C", volume: "L", wind_speed: "m/s" };
const US = { length: "mi", accumulated_precipitation: "in", area: "ft²", mass: "lb", pressure: "psi", temperature: "°F", volume: "gal", wind_speed: "mph" };

/** Integrations every HA install loads, whatever its devices. */
const CORE_COMPONENTS = ["api", "config", "frontend", "history", "homeassistant", "logbook", "recorder", "system_log", "websocket_api"];

/** `get_config` / REST `/api/config`, as HA's `Config.as_dict()` reports it. */
export function haConfig(c: House["config"], version: string, domains: Iterable<string>): HassConfig {
  return {
    allowlist_external_dirs: ["/media", "/config/www"],
    allowlist_external_urls: [],
    components: [...new Set([...CORE_COMPONENTS, ...domains])].sort(),
    config_dir: "/config",
    config_source: "storage",
    country: c.country,
    currency: c.currency,
    debug: false,
    elevation: c.elevation,
    external_url: c.external_url,
    internal_url: c.internal_url,
    language: c.language,
    latitude: c.latitude,
    location_name: c.location_name,
    longitude: c.longitude,
    radius: c.radius,
    recovery_mode: false,
    safe_mode: false,
    state: "RUNNING",
    time_zone: c.time_zone,
    unit_system: c.unit_system === "metric" ? METRIC : US,
    version,
    whitelist_external_dirs: ["/media", "/config/www"],
  };
}
