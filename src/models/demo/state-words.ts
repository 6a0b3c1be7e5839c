/**
 * The words Home Assistant's frontend shows for a binary sensor's `on` and
 * `off`, by device class: a window is "open", a motion sensor "detected".
 * From core's homeassistant/components/binary_sensor/strings.json
 * (`state.<device_class>.on/off`), lower-cased for a sentence; classes not
 * listed there read "on" and "off", as in HA.
 */
const BINARY_SENSOR_WORDS: Record<string, { on: string; off: string }> = {
  battery: { on: "low", off: "normal" },
  battery_charging: { on: "charging", off: "not charging" },
  carbon_monoxide: { on: "detected", off: "clear" },
  cold: { on: "cold", off: "normal" },
  connectivity: { on: "connected", off: "disconnected" },
  door: { on: "open", off: "closed" },
  garage_door: { on: "open", off: "closed" },
  gas: { on: "detected", off: "clear" },
  heat: { on: "hot", off: "normal" },
  light: { on: "light detected", off: "no light" },
  lock: { on: "unlocked", off: "locked" },
  moisture: { on: "wet", off: "dry" },
  motion: { on: "detected", off: "clear" },
  moving: { on: "moving", off: "not moving" },
  occupancy: { on: "detected", off: "clear" },
  opening: { on: "open", off: "closed" },
  plug: { on: "plugged in", off: "unplugged" },
  presence: { on: "home", off: "away" },
  problem: { on: "problem", off: "OK" },
  running: { on: "running", off: "not running" },
  safety: { on: "unsafe", off: "safe" },
  smoke: { on: "detected", off: "clear" },
  sound: { on: "detected", off: "clear" },
  tamper: { on: "tampering detected", off: "clear" },
  update: { on: "update available", off: "up-to-date" },
  vibration: { on: "detected", off: "clear" },
  window: { on: "open", off: "closed" },
};

/** A state as Home Assistant shows it to a person: "open" for a window sensor that is `on`; other states as they are. */
export function stateWord(entity: { entity_id: string; domain?: string | undefined; state?: string | null | undefined; attributes?: Record<string, unknown> | undefined }): string {
  const state = entity.state ?? "unknown";
  const domain = entity.domain ?? entity.entity_id.split(".")[0];
  const deviceClass = entity.attributes?.device_class;
  if (domain !== "binary_sensor" || typeof deviceClass !== "string" || (state !== "on" && state !== "off")) return state;
  return BINARY_SENSOR_WORDS[deviceClass]?.[state] ?? state;
}
