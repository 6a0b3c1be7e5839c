import type { HouseDeviceInput, HouseEntityInput } from "../house-schema.js";
import { hexId } from "../random.js";
import { DEFAULT_ADMIN_ID } from "../users.js";
import { nextSunEvent, sunPosition } from "../sun.js";
import { automationId } from "./automations.js";
import { configEntryId } from "./build.js";

/** Entities that belong to no physical device: people, helpers, automations, scripts, scenes, weather. */

type Registry = NonNullable<HouseEntityInput["registry"]>;

function entity(
  entityId: string,
  state: string,
  attributes: Record<string, unknown>,
  registry: Partial<Registry> & { platform: string },
  more: Partial<HouseEntityInput> = {},
): HouseEntityInput {
  return { entity_id: entityId, state, attributes, registry: { unique_id: hexId(`uid:${entityId}`, 20), ...registry }, ...more };
}

const helper = (domain: string, id: string, name: string, state: string, attributes: Record<string, unknown>, extra: Partial<Registry> = {}) =>
  entity(`${domain}.${id}`, state, { editable: true, ...attributes, friendly_name: name }, { platform: domain, original_name: name, ...extra });

export const WEATHER_DEVICE: HouseDeviceInput = {
  id: hexId("device:forecast_home"), name: "Forecast", manufacturer: "Met.no", model: "Forecast", area_id: null,
  config_entry_id: configEntryId("met"), identifiers: [["met", "home"]], entry_type: "service",
};
export const SUN_DEVICE: HouseDeviceInput = {
  id: hexId("device:sun"), name: "Sun", area_id: null, config_entry_id: configEntryId("sun"),
  identifiers: [["sun", configEntryId("sun")]], entry_type: "service",
};

/** `sun.sun` as HA's sun integration shows it at `nowMs`: above or below the horizon, and the next events. */
function sunEntity(nowMs: number, place: { latitude: number; longitude: number }): { state: string; attributes: Record<string, unknown> } {
  const { latitude: lat, longitude: lon } = place;
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString().replace("Z", "+00:00"));
  const rising = nextSunEvent(nowMs, "sunrise", lat, lon);
  const setting = nextSunEvent(nowMs, "sunset", lat, lon);
  const { elevation, azimuth } = sunPosition(nowMs, lat, lon);
  const noon = setting !== undefined && rising !== undefined ? (rising < setting ? (rising + setting) / 2 : setting - 4 * 3_600_000) : undefined;
  return {
    state: elevation > -0.833 ? "above_horizon" : "below_horizon",
    attributes: {
      next_dawn: iso(rising === undefined ? undefined : rising - 40 * 60_000), next_dusk: iso(setting === undefined ? undefined : setting + 40 * 60_000),
      next_midnight: iso(noon === undefined ? undefined : noon + 12 * 3_600_000), next_noon: iso(noon), next_rising: iso(rising), next_setting: iso(setting),
      elevation: Math.round(elevation * 100) / 100, azimuth: Math.round(azimuth * 100) / 100,
      rising: rising !== undefined && setting !== undefined && rising < setting, friendly_name: "Sun",
    },
  };
}

export function extraEntities(nowMs: number, place: { latitude: number; longitude: number } = { latitude: 52.3731, longitude: 4.8922 }): HouseEntityInput[] {
  const ago = (hours: number) => new Date(nowMs - hours * 3_600_000).toISOString().replace("Z", "+00:00");
  // Each automation's entity belongs to its config in automations.yaml (`./automations.ts`); runs set `last_triggered`.
  const automation = (id: string, name: string, on: boolean, mode: string, labels: string[] = [], area: string | null = null) =>
    entity(
      `automation.${id}`,
      on ? "on" : "off",
      { id: automationId(id), last_triggered: null, mode, current: 0, ...(mode === "queued" || mode === "parallel" ? { max: 10 } : {}), friendly_name: name },
      { platform: "automation", unique_id: automationId(id), original_name: name, labels, area_id: area },
    );
  const sun = sunEntity(nowMs, place);
  const script = (id: string, name: string, icon: string, sequence: HouseEntityInput["sequence"], labels: string[] = []) =>
    entity(
      `script.${id}`,
      "off",
      { last_triggered: null, mode: "single", current: 0, icon, friendly_name: name },
      { platform: "script", original_name: name, labels },
      { sequence },
    );
  const scene = (id: string, name: string, icon: string, members: Record<string, Record<string, unknown>>, area: string | null = null) =>
    entity(
      `scene.${id}`,
      "unknown",
      { entity_id: Object.keys(members), id: hexId(`scene:${id}`, 13), icon, friendly_name: name },
      { platform: "homeassistant", original_name: name, area_id: area },
      { scene: members },
    );

  return [
    entity("person.alex", "home", { editable: true, id: "alex", device_trackers: ["device_tracker.alex_phone"], user_id: DEFAULT_ADMIN_ID, friendly_name: "Alex" }, { platform: "person", original_name: "Alex" }),
    entity("person.sam", "not_home", { editable: true, id: "sam", device_trackers: ["device_tracker.sam_phone"], user_id: null, friendly_name: "Sam" }, { platform: "person", original_name: "Sam" }),
    // zone.home comes from the core config and has no registry entry, like YAML entities.
    { entity_id: "zone.home", state: "1", attributes: { latitude: 52.3731, longitude: 4.8922, radius: 100, passive: false, persons: ["person.alex"], editable: true, icon: "mdi:home", friendly_name: "Home" } },
    entity("zone.work", "0", { latitude: 52.3584, longitude: 4.8811, radius: 150, passive: false, persons: [], editable: true, icon: "mdi:briefcase", friendly_name: "Work" }, { platform: "zone", original_name: "Work" }),
    entity("sun.sun", sun.state, sun.attributes, { platform: "sun", device_id: SUN_DEVICE.id, config_entry_id: configEntryId("sun"), has_entity_name: true }),
    entity("sensor.sun_next_rising", String(sun.attributes.next_rising ?? ago(-7.6)), { device_class: "timestamp", friendly_name: "Sun Next rising" }, { platform: "sun", device_id: SUN_DEVICE.id, config_entry_id: configEntryId("sun"), has_entity_name: true, original_name: "Next rising", entity_category: "diagnostic", original_device_class: "timestamp" }),
    entity("weather.forecast_home", "cloudy", { temperature: 8.4, apparent_temperature: 5.9, dew_point: 4.1, temperature_unit: "°C", humidity: 78, cloud_coverage: 87.5, pressure: 1011.2, pressure_unit: "hPa", wind_bearing: 232.1, wind_speed: 18.4, wind_speed_unit: "km/h", visibility_unit: "km", precipitation_unit: "mm", attribution: "Weather forecast from met.no, delivered by the Norwegian Meteorological Institute.", supported_features: 3, friendly_name: "Forecast Home" }, { platform: "met", device_id: WEATHER_DEVICE.id, config_entry_id: configEntryId("met"), has_entity_name: true }),
    entity("alarm_control_panel.home_alarm", "armed_home", { code_format: "number", changed_by: null, code_arm_required: true, supported_features: 63, friendly_name: "Home Alarm" }, { platform: "manual", original_name: "Home Alarm", labels: ["security", "critical"] }),
    entity("todo.shopping_list", "4", { supported_features: 15, friendly_name: "Shopping List" }, { platform: "shopping_list", config_entry_id: configEntryId("shopping_list"), original_name: "Shopping List" }),

    helper("input_boolean", "guest_mode", "Guest Mode", "off", { icon: "mdi:account-multiple" }),
    helper("input_boolean", "vacation_mode", "Vacation Mode", "off", { icon: "mdi:airplane" }, { labels: ["security"] }),
    helper("input_boolean", "kids_asleep", "Kids Asleep", "off", { icon: "mdi:sleep" }, { labels: ["kids"] }),
    helper("input_number", "heating_setpoint", "Heating Setpoint", "20.5", { initial: null, min: 15, max: 25, step: 0.5, mode: "slider", unit_of_measurement: "°C", icon: "mdi:thermometer" }, { labels: ["climate"] }),
    helper("input_select", "house_mode", "House Mode", "Home", { options: ["Home", "Away", "Night", "Vacation"], icon: "mdi:home-variant" }),
    helper("counter", "coffees_today", "Coffees Today", "3", { initial: 0, step: 1, minimum: null, maximum: null, icon: "mdi:coffee" }),
    helper("timer", "laundry", "Laundry", "idle", { duration: "1:30:00", icon: "mdi:timer-outline" }),
    helper("input_datetime", "wake_up", "Wake-up Time", "06:45:00", { has_date: false, has_time: true, hour: 6, minute: 45, second: 0, timestamp: 24300 }),

    entity("sensor.house_average_temperature", "20.6", { state_class: "measurement", unit_of_measurement: "°C", device_class: "temperature", friendly_name: "House Average Temperature" }, { platform: "template", original_name: "House Average Temperature", labels: ["climate"], original_device_class: "temperature" }),
    entity("sensor.lights_on", "7", { state_class: "measurement", icon: "mdi:lightbulb-group", friendly_name: "Lights On" }, { platform: "template", original_name: "Lights On", labels: ["lighting"] }),
    entity("binary_sensor.anyone_home", "on", { device_class: "presence", friendly_name: "Anyone Home" }, { platform: "template", original_name: "Anyone Home", original_device_class: "presence" }),
    entity("sensor.garage_door_status", "unavailable", { friendly_name: "Garage Door Status" }, { platform: "template", original_name: "Garage Door Status", area_id: "garage" }),

    automation("hall_light_at_night", "Hall light at night", true, "restart", ["lighting"], "hallway"),
    automation("kids_bedtime_lights", "Kids Bedtime Lights", true, "single", ["kids"]),
    automation("notify_low_battery", "Notify Low Battery", true, "queued", ["critical"]),
    automation("arm_alarm_when_everyone_leaves", "Arm Alarm When Everyone Leaves", true, "single", ["security"]),
    automation("water_leak_alert", "Water Leak Alert", true, "parallel", ["security", "critical"]),
    automation("coffee_machine_auto_off", "Coffee Machine Auto Off", true, "single", ["energy"], "kitchen"),
    automation("morning_shutters", "Open Shutters in the Morning", true, "single"),
    automation("garden_sprinkler_schedule", "Garden Sprinkler Schedule", false, "single", ["outdoor"]),
    automation("porch_light_at_sunset", "Porch Light at Sunset", true, "single", ["outdoor", "lighting"]),
    automation("washing_machine_done", "Washing Machine Done", true, "single", [], "laundry_room"),

    script("goodnight", "Goodnight", "mdi:weather-night", [
      { action: "light.turn_off", target: { floor_id: "ground_floor" } },
      { action: "lock.lock", target: { entity_id: "lock.front_door" } },
      { action: "cover.close_cover", target: { area_id: "living_room" } },
      { action: "input_boolean.turn_on", target: { entity_id: "input_boolean.kids_asleep" } },
    ]),
    script("leaving_home", "Leaving Home", "mdi:exit-run", [
      { action: "light.turn_off", target: { entity_id: "all" } },
      { action: "lock.lock", target: { entity_id: "lock.front_door" } },
      { action: "climate.set_temperature", target: { entity_id: "climate.living_room_thermostat" }, data: { temperature: 17 } },
    ], ["security"]),
    script("movie_time", "Movie Time", "mdi:movie-open", [{ action: "scene.turn_on", target: { entity_id: "scene.movie_night" } }]),
    script("kitchen_all_off", "Kitchen All Off", "mdi:power", [
      { action: "light.turn_off", target: { area_id: "kitchen" } },
      { action: "switch.turn_off", target: { entity_id: ["switch.kitchen_coffee_machine"] } },
    ]),

    scene("movie_night", "Movie Night", "mdi:movie-open", {
      "light.living_room_floor_lamp": { state: "on", brightness: 60, color_temp_kelvin: 2700 },
      "light.living_room_ceiling": { state: "off" },
      "light.living_room_tv_backlight": { state: "on", brightness: 120 },
      "cover.living_room_shutter_left": { state: "closed", current_position: 0 },
      "cover.living_room_shutter_right": { state: "closed", current_position: 0 },
    }, "living_room"),
    scene("dinner", "Dinner", "mdi:silverware-fork-knife", {
      "light.dining_room_table_pendant": { state: "on", brightness: 180, color_temp_kelvin: 2700 },
      "light.dining_room_cabinet_lights": { state: "on", brightness: 90 },
      "light.kitchen_ceiling": { state: "off" },
    }, "dining_room"),
    scene("morning", "Morning", "mdi:weather-sunset-up", {
      "light.kitchen_ceiling": { state: "on", brightness: 255, color_temp_kelvin: 4000 },
      "light.landing_ceiling": { state: "on", brightness: 120, color_temp_kelvin: 3000 },
      "cover.master_bedroom_blinds": { state: "open", current_position: 100 },
    }),
    scene("kids_bedtime", "Kids Bedtime", "mdi:sleep", {
      "light.emma_s_room_ceiling": { state: "off" },
      "light.emma_s_room_night_light": { state: "on", brightness: 25 },
      "light.noah_s_room_ceiling": { state: "off" },
      "light.noah_s_room_desk_strip": { state: "off" },
    }),
  ];
}
