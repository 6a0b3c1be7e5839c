export { createCallServiceTool } from "./call-service.js";
export { decideActuation, type ActuationCeiling, type SessionActuation, type ActuationDecision } from "./actuation-policy.js";
