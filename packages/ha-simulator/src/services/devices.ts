import { attr, each, numberField, stateOf, stringField, update, validationError, type ServiceCall, type ServiceDef, type ServiceTable } from "./service.js";

/** Covers, locks, climate and the other device domains with simple state machines. */

function simple(name: string, description: string, fn: (c: ServiceCall, id: string) => void, fields?: ServiceDef["fields"]): ServiceDef {
  return { name, description, target: true, fields, run: each(fn) };
}

function coverPosition(c: ServiceCall, id: string, position: number): void {
  update(c, id, position === 0 ? "closed" : "open", { current_position: position });
}

function setHvacMode(c: ServiceCall, id: string, mode: string): void {
  const modes = (attr(c, id, "hvac_modes") as string[] | undefined) ?? [];
  if (!modes.includes(mode)) throw validationError(`HVAC mode ${mode} is not valid for ${id}. Valid HVAC modes are: ${modes.join(", ")}`);
  update(c, id, mode, mode === "off" ? { hvac_action: "off" } : {});
}

export const deviceServices: ServiceTable = {
  cover: {
    open_cover: simple("Open", "Opens a cover.", (c, id) => coverPosition(c, id, 100)),
    close_cover: simple("Close", "Closes a cover.", (c, id) => coverPosition(c, id, 0)),
    stop_cover: simple("Stop", "Stops the cover movement.", () => undefined),
    toggle: simple("Toggle", "Toggles a cover open/closed.", (c, id) => coverPosition(c, id, stateOf(c, id) === "closed" ? 100 : 0)),
    set_cover_position: simple(
      "Set position", "Moves a cover to a specific position.",
      (c, id) => coverPosition(c, id, numberField(c.data, "position", 0, 100, true)!),
      { position: { description: "Target position.", required: true, selector: { number: { min: 0, max: 100, unit_of_measurement: "%" } } } },
    ),
  },
  lock: {
    lock: simple("Lock", "Locks a lock.", (c, id) => update(c, id, "locked")),
    unlock: simple("Unlock", "Unlocks a lock.", (c, id) => update(c, id, "unlocked")),
    open: simple("Open", "Opens a lock.", (c, id) => update(c, id, "open")),
  },
  climate: {
    set_temperature: simple(
      "Set target temperature", "Sets the temperature setpoint.",
      (c, id) => {
        const min = Number(attr(c, id, "min_temp") ?? 7);
        const max = Number(attr(c, id, "max_temp") ?? 35);
        const t = numberField(c.data, "temperature", -100, 200);
        if (t !== undefined && (t < min || t > max)) throw validationError(`Provided temperature ${t} is not valid. Accepted range is ${min} to ${max}.`);
        const mode = stringField(c.data, "hvac_mode");
        if (mode) setHvacMode(c, id, mode);
        update(c, id, undefined, t === undefined ? {} : { temperature: t });
      },
      {
        temperature: { description: "Target temperature.", selector: { number: { min: 0, max: 250, step: 0.1 } } },
        hvac_mode: { description: "HVAC operation mode.", selector: { select: { options: ["off", "auto", "cool", "dry", "fan_only", "heat_cool", "heat"] } } },
      },
    ),
    set_hvac_mode: simple("Set HVAC mode", "Sets HVAC operation mode.", (c, id) => setHvacMode(c, id, stringField(c.data, "hvac_mode", true)!), {
      hvac_mode: { description: "HVAC operation mode.", required: true, selector: { select: { options: ["off", "auto", "cool", "dry", "fan_only", "heat_cool", "heat"] } } },
    }),
    set_preset_mode: simple("Set preset mode", "Sets preset mode.", (c, id) => update(c, id, undefined, { preset_mode: stringField(c.data, "preset_mode", true) }), {
      preset_mode: { description: "Preset mode.", required: true, selector: { text: {} } },
    }),
    turn_on: simple("Turn on", "Turns climate device on.", (c, id) => {
      const modes = ((attr(c, id, "hvac_modes") as string[] | undefined) ?? []).filter((m) => m !== "off");
      if (stateOf(c, id) === "off" && modes[0]) update(c, id, modes.includes("heat") ? "heat" : modes[0]);
    }),
    turn_off: simple("Turn off", "Turns climate device off.", (c, id) => update(c, id, "off", { hvac_action: "off" })),
  },
  valve: {
    open_valve: simple("Open", "Opens a valve.", (c, id) => update(c, id, "open")),
    close_valve: simple("Close", "Closes a valve.", (c, id) => update(c, id, "closed")),
    toggle: simple("Toggle", "Toggles a valve.", (c, id) => update(c, id, stateOf(c, id) === "open" ? "closed" : "open")),
  },
  media_player: {
    turn_on: simple("Turn on", "Turns on the power of the media player.", (c, id) => update(c, id, stateOf(c, id) === "off" ? "idle" : undefined)),
    turn_off: simple("Turn off", "Turns off the power of the media player.", (c, id) => update(c, id, "off")),
    media_play: simple("Play", "Starts playing.", (c, id) => update(c, id, "playing")),
    media_pause: simple("Pause", "Pauses.", (c, id) => update(c, id, "paused")),
    media_stop: simple("Stop", "Stops playing.", (c, id) => update(c, id, "idle")),
    volume_set: simple("Set volume", "Sets the volume level.", (c, id) => update(c, id, undefined, { volume_level: numberField(c.data, "volume_level", 0, 1, true) }), {
      volume_level: { description: "The volume. 0 is inaudible, 1 is the maximum volume.", required: true, selector: { number: { min: 0, max: 1, step: 0.01 } } },
    }),
    volume_mute: simple("Mute/unmute volume", "Mutes or unmutes.", (c, id) => update(c, id, undefined, { is_volume_muted: c.data.is_volume_muted === true })),
  },
  vacuum: {
    start: simple("Start", "Starts or resumes the cleaning task.", (c, id) => update(c, id, "cleaning")),
    pause: simple("Pause", "Pauses the cleaning task.", (c, id) => update(c, id, "paused")),
    return_to_base: simple("Return to dock", "Tells the vacuum to return to its dock.", (c, id) => update(c, id, "returning")),
  },
  lawn_mower: {
    start_mowing: simple("Start mowing", "Starts the mowing task.", (c, id) => update(c, id, "mowing")),
    pause: simple("Pause", "Pauses the mowing task.", (c, id) => update(c, id, "paused")),
    dock: simple("Return to dock", "Stops the mowing task and returns to the dock.", (c, id) => update(c, id, "returning")),
  },
  alarm_control_panel: {
    alarm_disarm: simple("Disarm", "Disarms the alarm.", (c, id) => update(c, id, "disarmed")),
    alarm_arm_home: simple("Arm home", "Arms the alarm in the home mode.", (c, id) => update(c, id, "armed_home")),
    alarm_arm_away: simple("Arm away", "Arms the alarm in the away mode.", (c, id) => update(c, id, "armed_away")),
    alarm_arm_night: simple("Arm night", "Arms the alarm in the night mode.", (c, id) => update(c, id, "armed_night")),
  },
};
