export { createCallServiceTool } from "./call-service.js";
export { decideActuation, isServicePattern, type ActuationCeiling, type SessionActuation, type ActuationDecision } from "./actuation-policy.js";
