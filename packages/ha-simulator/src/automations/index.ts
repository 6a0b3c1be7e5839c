export { AutomationEngine, type EventSource } from "./engine.js";
export type { AutomationHost, ServiceFailure } from "./host.js";
export { validateActions, validateConditions, validateTriggers, ConfigInvalid } from "./config.js";
export type { RunTrace } from "./trace.js";
