import { dict } from "../common/index.js";
import { each, numberField, onOffServices, stateOf, update, attr, type ServiceCall, type ServiceTable } from "./service.js";

/** Lights, switches, fans and the generic homeassistant.* services. */

function lightOn(call: ServiceCall, id: string): void {
  const d = call.data;
  const pct = numberField(d, "brightness_pct", 0, 100);
  let brightness = numberField(d, "brightness", 0, 255);
  if (brightness === undefined && pct !== undefined) brightness = Math.round((pct * 255) / 100);
  const step = numberField(d, "brightness_step_pct", -100, 100);
  const current = attr(call, id, "brightness");
  const prior = typeof current === "number" ? current : 255;
  if (brightness === undefined && step !== undefined) brightness = Math.max(0, Math.min(255, Math.round(prior + (step * 255) / 100)));
  if (brightness === 0) return lightOff(call, id);
  const patch = dict<unknown>({ brightness: brightness ?? prior });
  const kelvin = numberField(d, "color_temp_kelvin", 1000, 10000) ?? numberField(d, "kelvin", 1000, 10000);
  const modes = (attr(call, id, "supported_color_modes") as string[] | undefined) ?? [];
  const rgb = d.rgb_color;
  if (Array.isArray(rgb) && rgb.length === 3 && modes.some((m) => m !== "color_temp" && m !== "brightness" && m !== "onoff")) {
    Object.assign(patch, { color_mode: modes.includes("xy") ? "xy" : modes[0], rgb_color: rgb.map(Number), color_temp_kelvin: null });
  } else if (modes.includes("color_temp")) {
    const previousK = attr(call, id, "color_temp_kelvin");
    const minK = Number(attr(call, id, "min_color_temp_kelvin") ?? 2000);
    const maxK = Number(attr(call, id, "max_color_temp_kelvin") ?? 6535);
    const k = kelvin ?? (typeof previousK === "number" ? previousK : 2700);
    Object.assign(patch, { color_mode: "color_temp", color_temp_kelvin: Math.max(minK, Math.min(maxK, k)) });
  }
  if (typeof d.effect === "string") patch.effect = d.effect;
  update(call, id, "on", patch);
}

function lightOff(call: ServiceCall, id: string): void {
  const patch = dict<unknown>({ brightness: null, color_mode: null });
  if (attr(call, id, "color_temp_kelvin") !== undefined) patch.color_temp_kelvin = null;
  if (attr(call, id, "rgb_color") !== undefined) patch.rgb_color = null;
  update(call, id, "off", patch);
}

const lightFields = {
  brightness: { description: "Brightness from 0 to 255.", example: 120, selector: { number: { min: 0, max: 255 } } },
  brightness_pct: { description: "Brightness in percent.", example: 47, selector: { number: { min: 0, max: 100, unit_of_measurement: "%" } } },
  color_temp_kelvin: { description: "Colour temperature in Kelvin.", example: 2700, selector: { color_temp: { unit: "kelvin", min: 2000, max: 6500 } } },
  rgb_color: { description: "Colour as red, green, blue.", example: [255, 100, 100], selector: { color_rgb: {} } },
  transition: { description: "Seconds the change takes.", example: 2, selector: { number: { min: 0, max: 300, unit_of_measurement: "seconds" } } },
};

function fanOn(call: ServiceCall, id: string): void {
  const pct = numberField(call.data, "percentage", 0, 100);
  if (pct === 0) return void update(call, id, "off", { percentage: 0 });
  const preset = typeof call.data.preset_mode === "string" ? call.data.preset_mode : undefined;
  update(call, id, "on", { percentage: pct ?? (Number(attr(call, id, "percentage")) || 50), ...(preset ? { preset_mode: preset } : {}) });
}

export const lightServices: ServiceTable = {
  light: {
    turn_on: { name: "Turn on", description: "Turns on one or more lights and adjusts their properties.", target: true, fields: lightFields, run: each(lightOn) },
    turn_off: { name: "Turn off", description: "Turns off one or more lights.", target: true, fields: { transition: lightFields.transition }, run: each(lightOff) },
    toggle: { name: "Toggle", description: "Toggles one or more lights.", target: true, fields: lightFields, run: each((c, id) => (stateOf(c, id) === "on" ? lightOff(c, id) : lightOn(c, id))) },
  },
  switch: onOffServices("switch", "switch"),
  input_boolean: onOffServices("input_boolean", "input boolean"),
  fan: {
    turn_on: { name: "Turn on", description: "Turns the fan on.", target: true, fields: { percentage: { description: "Speed in percent.", selector: { number: { min: 0, max: 100 } } } }, run: each(fanOn) },
    turn_off: { name: "Turn off", description: "Turns the fan off.", target: true, run: each((c, id) => update(c, id, "off", { percentage: 0 })) },
    toggle: { name: "Toggle", description: "Toggles the fan.", target: true, run: each((c, id) => (stateOf(c, id) === "on" ? update(c, id, "off", { percentage: 0 }) : fanOn(c, id))) },
    set_percentage: { name: "Set speed", description: "Sets the fan speed.", target: true, fields: { percentage: { description: "Speed in percent.", required: true, selector: { number: { min: 0, max: 100 } } } }, run: each(fanOn) },
    set_preset_mode: { name: "Set preset mode", description: "Sets the preset mode.", target: true, fields: { preset_mode: { description: "Preset mode.", required: true, selector: { text: {} } } }, run: each(fanOn) },
  },
};
