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

/**
 * The space Home Assistant's frontend puts between a value and its unit:
 * none before "°", none before "%" in English, one before any other unit
 * (frontend src/common/translations/blank_before_unit.ts, blank_before_percent.ts).
 */
const blankBefore = (unit: string): string => (unit === "°" || unit === "%" ? "" : " ");

/** A state as HA's frontend shows it, its unit included: "20.6 °C", "47%", "open". */
export function shownState(entity: Parameters<typeof stateWord>[0] & { unit?: string | null | undefined }): string {
  const word = stateWord(entity);
  const unit = entity.unit ?? (typeof entity.attributes?.unit_of_measurement === "string" ? entity.attributes.unit_of_measurement : undefined);
  // Only a reading has a unit: "unavailable" and "unknown" stand alone, as in HA.
  return unit && word !== "unavailable" && word !== "unknown" ? `${word}${blankBefore(unit)}${unit}` : word;
}

/** The states of a domain's entities, as HA names them (each domain's `const.py`); domains not listed may show anything. */
const DOMAIN_STATES: Record<string, readonly string[]> = {
  lock: ["locked", "unlocked", "locking", "unlocking", "jammed", "open", "opening"],
  cover: ["open", "closed", "opening", "closing"],
  valve: ["open", "closed", "opening", "closing"],
  light: ["on", "off"],
  switch: ["on", "off"],
  fan: ["on", "off"],
  input_boolean: ["on", "off"],
  humidifier: ["on", "off"],
  siren: ["on", "off"],
  remote: ["on", "off"],
  automation: ["on", "off"],
};

/**
 * Whether an entity can ever show a state word ("locked", "open"): a lock
 * can be locked, a window sensor can be open, a motion sensor can be
 * neither. Undefined when it cannot be told (a binary sensor whose device
 * class is not known yet, a domain of free states).
 */
export function canShow(entity: Parameters<typeof stateWord>[0] & { unit?: string | null | undefined }, word: string): boolean | undefined {
  const domain = entity.domain ?? entity.entity_id.split(".")[0]!;
  if (domain === "binary_sensor") {
    // Without its attributes read, the device class is not known yet.
    if (!entity.attributes) return undefined;
    const deviceClass = entity.attributes.device_class;
    const words = typeof deviceClass === "string" ? BINARY_SENSOR_WORDS[deviceClass] : undefined;
    return (words ? [words.on, words.off] : ["on", "off"]).includes(word);
  }
  // A measurement shows numbers, never a word such as "locked".
  if (domain === "sensor" && (entity.unit || (entity.state && !Number.isNaN(Number(entity.state))))) return false;
  return DOMAIN_STATES[domain]?.includes(word);
}
