/** How an entity's state moves over a day, which decides what history it gets. */
export type HistoryKind = "numeric" | "total" | "toggle" | "alternating" | "static";

/** States that alternate during a normal day, per domain, the first being the resting state. */
export const ALTERNATES = new Map<string, string[]>(Object.entries({
  lock: ["locked", "unlocked"],
  cover: ["open", "closed"],
  media_player: ["idle", "playing", "paused"],
  person: ["home", "not_home"],
  device_tracker: ["home", "not_home"],
  vacuum: ["docked", "cleaning", "returning"],
  lawn_mower: ["docked", "mowing", "returning"],
  alarm_control_panel: ["armed_home", "disarmed", "armed_away"],
  valve: ["closed", "open"],
}));

const TOGGLING = new Set(["binary_sensor", "light", "switch", "fan", "input_boolean"]);

export function isNumeric(state: string): boolean {
  return state.trim() !== "" && Number.isFinite(Number(state));
}

export function classify(entityId: string, state: string, attributes: Record<string, unknown>): HistoryKind {
  const domain = entityId.slice(0, entityId.indexOf("."));
  if ((domain === "sensor" || domain === "number" || domain === "input_number") && isNumeric(state)) {
    const sc = attributes.state_class;
    if (sc === "total_increasing" || sc === "total") return "total";
    return attributes.unit_of_measurement !== undefined || sc === "measurement" ? "numeric" : "static";
  }
  if (TOGGLING.has(domain) && (state === "on" || state === "off")) return "toggle";
  if (ALTERNATES.get(domain)?.includes(state)) return "alternating";
  return "static";
}
