/**
 * Shorthands for writing homes: an entity of each common kind with the
 * attributes Home Assistant gives it, so a home file reads like a list of
 * devices.
 */
import { dc, e, type EntitySpec } from "../home-spec.js";

type More = Partial<EntitySpec>;

export const light = (id: string, name: string, state: "on" | "off", more: More = {}) =>
  e(`light.${id}`, name, state, state === "on" ? { brightness: 180, color_mode: "brightness", supported_color_modes: ["brightness"] } : { supported_color_modes: ["brightness"] }, more);
export const sw = (id: string, name: string, state: "on" | "off", cls?: "outlet" | "switch", more: More = {}) => e(`switch.${id}`, name, state, cls ? { device_class: cls } : {}, more);
export const fan = (id: string, name: string, state: "on" | "off", more: More = {}) => e(`fan.${id}`, name, state, { percentage: state === "on" ? 50 : 0 }, more);
export const cover = (id: string, name: string, state: "open" | "closed", cls: string, more: More = {}) => e(`cover.${id}`, name, state, { device_class: cls, current_position: state === "open" ? 100 : 0 }, more);
export const valve = (id: string, name: string, state: "open" | "closed", cls = "water", more: More = {}) => e(`valve.${id}`, name, state, { device_class: cls }, more);
export const lock = (id: string, name: string, state: "locked" | "unlocked", more: More = {}) => e(`lock.${id}`, name, state, {}, more);
export const media = (id: string, name: string, state: "playing" | "paused" | "idle" | "off" | "on", cls: "speaker" | "tv" | "receiver", more: More = {}) =>
  e(`media_player.${id}`, name, state, { device_class: cls, volume_level: 0.3, ...(state === "playing" || state === "paused" ? { media_title: "Track" } : {}) }, more);
export const climate = (id: string, name: string, state: "heat" | "cool" | "off" | "auto" | "heat_cool", current: number, target: number, more: More = {}) =>
  e(`climate.${id}`, name, state, { current_temperature: current, temperature: target, hvac_modes: ["off", "heat", "cool", "auto"] }, more);
export const heater = (id: string, name: string, state: string, current: number, more: More = {}) => e(`water_heater.${id}`, name, state, { current_temperature: current, temperature: 55 }, more);
export const vacuum = (id: string, name: string, state: "docked" | "cleaning" | "idle" | "returning" | "paused", more: More = {}) => e(`vacuum.${id}`, name, state, { battery_level: 90 }, more);
export const mower = (id: string, name: string, state: "docked" | "mowing", more: More = {}) => e(`lawn_mower.${id}`, name, state, {}, more);
export const todo = (id: string, name: string, items: number, more: More = {}) => e(`todo.${id}`, name, String(items), {}, more);
export const weather = (id: string, name: string, more: More = {}) => e(`weather.${id}`, name, "sunny", { temperature: 18, humidity: 60, temperature_unit: "°C" }, more);
export const calendar = (id: string, name: string, state: "on" | "off", more: More = {}) => e(`calendar.${id}`, name, state, { message: "Dentist" }, more);
export const person = (id: string, name: string, state: string, more: More = {}) => e(`person.${id}`, name, state, {}, more);
export const scene = (id: string, name: string, more: More = {}) => e(`scene.${id}`, name, "2026-11-20T18:00:00+00:00", {}, more);
export const script = (id: string, name: string, more: More = {}) => e(`script.${id}`, name, "off", {}, more);
export const automation = (id: string, name: string, more: More = {}) => e(`automation.${id}`, name, "on", {}, more);
export const camera = (id: string, name: string, more: More = {}) => e(`camera.${id}`, name, "idle", {}, more);
export const alarm = (id: string, name: string, state: string, more: More = {}) => e(`alarm_control_panel.${id}`, name, state, {}, more);
export const humidifier = (id: string, name: string, state: "on" | "off", more: More = {}) => e(`humidifier.${id}`, name, state, { humidity: 45 }, more);
export const button = (id: string, name: string, more: More = {}) => e(`button.${id}`, name, "unknown", {}, more);
export const boolean = (id: string, name: string, state: "on" | "off", more: More = {}) => e(`input_boolean.${id}`, name, state, {}, more);

/** A numeric sensor of a device class, with its unit. */
export const sensor = (id: string, name: string, value: number | string, cls: string | null, unit: string | null, more: More = {}) =>
  e(`sensor.${id}`, name, String(value), cls ? dc(cls, unit ?? undefined) : unit ? { unit_of_measurement: unit, state_class: "measurement" } : {}, more);
/** A binary sensor of a device class. */
export const bin = (id: string, name: string, state: "on" | "off", cls: string, more: More = {}) => e(`binary_sensor.${id}`, name, state, { device_class: cls }, more);

export const temp = (id: string, name: string, v: number, more: More = {}) => sensor(id, name, v, "temperature", "°C", more);
export const humidity = (id: string, name: string, v: number, more: More = {}) => sensor(id, name, v, "humidity", "%", more);
export const battery = (id: string, name: string, v: number, more: More = {}) => sensor(id, name, v, "battery", "%", more);
export const power = (id: string, name: string, v: number, more: More = {}) => sensor(id, name, v, "power", "W", more);
export const energy = (id: string, name: string, v: number, more: More = {}) => sensor(id, name, v, "energy", "kWh", more);
