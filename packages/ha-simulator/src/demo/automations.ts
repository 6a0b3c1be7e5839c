import type { HouseInput } from "../house-schema.js";
import { fromLocal, lastLocalTime, localParts } from "../common/index.js";
import { hexId } from "../random.js";
import { nextSunEvent } from "../sun.js";

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** The config id of a demo automation: HA's editor ids are 13-digit strings; these are stable per name. */
export const automationId = (slug: string) => hexId(`auto:${slug}`, 13);

type Place = { timeZone: string; latitude: number; longitude: number };

/**
 * automations.yaml of the demo house, as HA's editor writes it (plural keys,
 * `trigger:` and `action:` inside), plus one automation written by hand
 * without an id. Each entry's `slug` names the entity it belongs to.
 */
export function demoAutomations(): Record<string, unknown>[] {
  const hallwayLight = { entity_id: "light.hallway_ceiling" };
  return [
    {
      id: automationId("hall_light_at_night"), alias: "Hall light at night",
      description: "Turn the hall light on when someone walks through the hall after dark.",
      triggers: [{ trigger: "state", entity_id: "binary_sensor.hallway_motion_sensor_occupancy", to: "on" }],
      conditions: [
        { alias: "Sun below horizon", condition: "state", entity_id: "sun.sun", state: "below_horizon" },
        { alias: "Hall light is off", condition: "state", entity_id: "light.hallway_ceiling", state: "off" },
      ],
      actions: [{ action: "light.turn_on", target: hallwayLight, data: { brightness_pct: 40 } }],
      mode: "restart",
    },
    {
      id: automationId("kids_bedtime_lights"), alias: "Kids Bedtime Lights", description: "",
      triggers: [{ trigger: "time", at: "19:30:00" }],
      conditions: [],
      actions: [{ action: "scene.turn_on", target: { entity_id: "scene.kids_bedtime" } }],
      mode: "single",
    },
    {
      id: automationId("notify_low_battery"), alias: "Notify Low Battery", description: "",
      triggers: [{ trigger: "numeric_state", entity_id: ["sensor.front_door_battery", "sensor.hallway_motion_sensor_battery"], below: 15 }],
      conditions: [],
      actions: [{ action: "notify.mobile_app_alex_phone", data: { message: "{{ trigger.to_state.name }} is at {{ trigger.to_state.state }}%" } }],
      mode: "queued",
    },
    {
      id: automationId("arm_alarm_when_everyone_leaves"), alias: "Arm Alarm When Everyone Leaves", description: "",
      triggers: [{ trigger: "state", entity_id: "binary_sensor.anyone_home", to: "off", for: { minutes: 5 } }],
      conditions: [{ condition: "state", entity_id: "input_boolean.guest_mode", state: "off" }],
      actions: [{ action: "alarm_control_panel.alarm_arm_away", target: { entity_id: "alarm_control_panel.home_alarm" } }],
      mode: "single",
    },
    {
      id: automationId("water_leak_alert"), alias: "Water Leak Alert", description: "",
      triggers: [
        { trigger: "state", entity_id: ["binary_sensor.kitchen_sink_leak_sensor_moisture", "binary_sensor.laundry_room_leak_sensor_moisture", "binary_sensor.bathroom_leak_sensor_moisture"], to: "on" },
      ],
      conditions: [],
      actions: [
        { action: "notify.mobile_app_alex_phone", data: { title: "Water leak!", message: "{{ trigger.to_state.name }} detected water." } },
        { action: "persistent_notification.create", data: { title: "Water leak", message: "{{ trigger.to_state.name }} detected water." } },
      ],
      mode: "parallel",
    },
    {
      id: automationId("coffee_machine_auto_off"), alias: "Coffee Machine Auto Off", description: "",
      triggers: [{ trigger: "time", at: "10:00:00" }],
      conditions: [],
      actions: [{ action: "switch.turn_off", target: { entity_id: "switch.kitchen_coffee_machine" } }],
      mode: "single",
    },
    {
      id: automationId("morning_shutters"), alias: "Open Shutters in the Morning", description: "",
      triggers: [{ trigger: "time", at: "07:30:00" }],
      conditions: [],
      actions: [{ action: "cover.open_cover", target: { entity_id: ["cover.living_room_shutter_left", "cover.living_room_shutter_right"] } }],
      mode: "single",
    },
    {
      id: automationId("garden_sprinkler_schedule"), alias: "Garden Sprinkler Schedule", description: "",
      triggers: [{ trigger: "time", at: "06:00:00" }],
      conditions: [],
      actions: [{ action: "valve.open_valve", target: { entity_id: "valve.garden_sprinkler" } }],
      mode: "single",
    },
    {
      id: automationId("porch_light_at_sunset"), alias: "Porch Light at Sunset", description: "",
      triggers: [{ trigger: "sun", event: "sunset", offset: "-00:15:00" }],
      conditions: [],
      actions: [{ action: "light.turn_on", target: { entity_id: "light.porch_light" }, data: { brightness_pct: 60 } }],
      mode: "single",
    },
    {
      id: automationId("washing_machine_done"), alias: "Washing Machine Done", description: "",
      triggers: [{ trigger: "state", entity_id: "sensor.washing_machine_operation_state", to: "finished" }],
      conditions: [],
      actions: [{ action: "notify.mobile_app_sams_phone", data: { message: "The washing is done." } }],
      mode: "single",
    },
    // Written by hand in automations.yaml, without an id: HA files its traces under "None" and never finishes them.
    {
      alias: "Towel radiator off at 9",
      triggers: [{ trigger: "time", at: "09:00:00" }],
      actions: [{ action: "switch.turn_off", target: { entity_id: "switch.bathroom_towel_radiator" } }],
    },
  ];
}

/** "Last night" in the house's time zone: 22:14 on the day before today. */
export function lastNight(nowMs: number, tz: string): number {
  const p = localParts(nowMs, tz);
  return fromLocal(tz, p.year, p.month, p.day - 1, 22, 14, 3);
}

/**
 * The runs the demo house remembers, and the history that makes them true:
 * - "Hall light at night": last night at 22:14 the hall motion sensor turned
 *   on, the sun was down, but the hall light was already on (switched on at
 *   21:43), so the condition "Hall light is off" failed and nothing ran; the
 *   night before at 21:48 it turned the light on;
 * - "Washing Machine Done" at 16:05 yesterday: the notification failed, the
 *   phone's service is `notify.mobile_app_sam_phone`, not `…_sams_phone`;
 * - the morning shutters, the coffee machine, the kids' bedtime and the porch
 *   light ran as they do every day;
 * - "Towel radiator off at 9" has no id: its run stays "running" under "None".
 */
export function demoRuns(nowMs: number, place: Place, states: { hallLight: string }): Pick<HouseInput, "automation_runs"> & { scripted: NonNullable<HouseInput["history"]>["scripted"] } {
  const tz = place.timeZone;
  const night = lastNight(nowMs, tz);
  const nightBefore = night - 24 * HOUR - 26 * MINUTE;
  const laundryDone = night - 6 * HOUR - 9 * MINUTE;
  const lastSunset = nextSunEvent(nowMs - 30 * HOUR, "sunset", place.latitude, place.longitude);
  const sunsets = [lastSunset, lastSunset === undefined ? undefined : nextSunEvent(lastSunset + HOUR, "sunset", place.latitude, place.longitude)];
  const porch = sunsets.filter((t): t is number => t !== undefined && t - 15 * MINUTE < nowMs).at(-1);
  const runs: NonNullable<HouseInput["automation_runs"]> = [
    { automation: automationId("hall_light_at_night"), at: nightBefore },
    { automation: automationId("hall_light_at_night"), at: night },
    { automation: automationId("washing_machine_done"), at: laundryDone },
    { automation: automationId("morning_shutters"), at: lastLocalTime(nowMs - MINUTE, tz, 7, 30) },
    { automation: automationId("coffee_machine_auto_off"), at: lastLocalTime(nowMs - MINUTE, tz, 10, 0) },
    { automation: automationId("kids_bedtime_lights"), at: lastLocalTime(nowMs - MINUTE, tz, 19, 30) },
    { automation: "Towel radiator off at 9", at: lastLocalTime(nowMs - MINUTE, tz, 9, 0) },
  ];
  if (porch !== undefined) runs.push({ automation: automationId("porch_light_at_sunset"), at: porch - 15 * MINUTE });

  // After the light went off at 23:29 last night, it is on again now if the house says so.
  const lightOff = night + 75 * MINUTE;
  const light = [
    { at: nightBefore - 3 * HOUR, state: "off" },
    { at: nightBefore + 1000, state: "on" },
    { at: nightBefore + 40 * MINUTE, state: "off" },
    { at: night - 31 * MINUTE, state: "on" },
    { at: lightOff, state: "off" },
    ...(states.hallLight === "on" ? [{ at: lightOff + Math.max(MINUTE, (nowMs - lightOff) / 2), state: "on" }] : []),
  ];
  const scripted = [
    {
      entity_id: "binary_sensor.hallway_motion_sensor_occupancy",
      changes: [
        { at: nightBefore - 3 * HOUR, state: "off" },
        { at: nightBefore, state: "on" },
        { at: nightBefore + 3 * MINUTE, state: "off" },
        { at: night, state: "on" },
        { at: night + 2 * MINUTE, state: "off" },
      ],
    },
    { entity_id: "light.hallway_ceiling", changes: light },
    {
      entity_id: "sensor.washing_machine_operation_state",
      changes: [
        { at: laundryDone - 5 * HOUR, state: "ready" },
        { at: laundryDone - 95 * MINUTE, state: "run" },
        { at: laundryDone, state: "finished" },
        { at: laundryDone + 40 * MINUTE, state: "ready" },
      ],
    },
  ];
  return { automation_runs: runs, scripted };
}
