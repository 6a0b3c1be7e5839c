const OPENINGS = new Set(["door", "window", "opening", "garage_door"]);
const NOT_SWITCHED_ON = new Set(["automation", "update"]);
const OPEN_STATES = new Set(["open", "opening"]);
const CLOSED_STATES = new Set(["closed", "closing"]);

/**
 * Whether an entity whose state is `state` is in one of the states a state
 * word stands for, as people mean it: a door contact that is "on" is open.
 */
export function inStateAsSpoken(args: { state: string | undefined; domain: string | undefined; deviceClass: string | null | undefined; wanted: string[] }): boolean {
  const { state, domain, deviceClass, wanted } = args;
  if (state === undefined) return false;
  // An enabled automation or a pending update is "on", but that is not what "what's on?" asks.
  if (wanted.includes(state)) return !(state === "on" && NOT_SWITCHED_ON.has(domain ?? ""));
  // Door and window contacts report on/off; people say open/closed.
  if (domain !== "binary_sensor" || !OPENINGS.has(deviceClass ?? "")) return false;
  return (state === "on" && wanted.some((w) => OPEN_STATES.has(w))) || (state === "off" && wanted.some((w) => CLOSED_STATES.has(w)));
}
