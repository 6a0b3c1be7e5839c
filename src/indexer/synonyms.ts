/**
 * Everyday words people use for Home Assistant domains and device classes.
 * Keys and values are stemmed tokens; a synonym match counts a bit less than
 * the word itself.
 */
const SYNONYMS = new Map<string, string[]>(Object.entries({
  lamp: ["light"],
  bulb: ["light"],
  lighting: ["light"],
  temp: ["temperature"],
  thermometer: ["temperature"],
  warm: ["temperature"],
  hot: ["temperature"],
  cold: ["temperature"],
  thermostat: ["climate"],
  heating: ["climate"],
  heater: ["climate"],
  hvac: ["climate"],
  ac: ["climate"],
  blind: ["cover", "shade", "shutter"],
  shade: ["cover", "blind"],
  shutter: ["cover", "blind"],
  curtain: ["cover"],
  plug: ["switch", "outlet"],
  outlet: ["switch", "plug"],
  socket: ["switch", "plug", "outlet"],
  tv: ["media", "television"],
  television: ["media", "tv"],
  speaker: ["media"],
  presence: ["occupancy", "motion", "person"],
  occupancy: ["presence", "motion"],
  movement: ["motion"],
  contact: ["door", "window", "opening"],
  leak: ["moisture", "water"],
  flood: ["moisture", "leak"],
  smoke: ["smoke"],
  power: ["power", "energy"],
  consumption: ["energy", "power"],
  electricity: ["energy", "power"],
  humid: ["humidity"],
  lux: ["illuminance"],
  brightness: ["illuminance"],
  battery: ["battery"],
  bat: ["battery"],
  fw: ["firmware", "update"],
  firmware: ["update"],
  vacuum: ["vacuum"],
  robot: ["vacuum"],
  camera: ["camera"],
  cam: ["camera"],
  alarm: ["alarm_control_panel", "siren"],
  siren: ["siren", "alarm"],
  doorbell: ["doorbell", "ring"],
  people: ["person"],
  who: ["person"],
  locked: ["lock"],
  unlocked: ["lock"],
  car: ["vehicle", "tesla", "ev"],
  charger: ["charging", "wallbox", "connector", "evse"],
  phone: ["iphone", "mobile", "pixel", "android"],
  mobile: ["phone", "iphone"],
  weather: ["weather"],
  automation: ["automation"],
  routine: ["automation", "script"],
  helper: ["input"],
}));

export function synonymsOf(token: string): string[] {
  return SYNONYMS.get(token) ?? [];
}

/** Words that describe a state rather than an entity: "what's on upstairs". */
export const STATE_WORDS = new Set([
  "on", "off", "open", "closed", "unavailable", "unknown", "home", "away",
  "locked", "unlocked", "playing", "paused", "idle", "heat", "cool",
  "charging", "docked", "cleaning", "disarmed", "triggered",
]);
