export { createCallServiceTool } from "./call-service.js";
export { targetsOfCall } from "./call-target.js";
export { decideActuation, type ActuationCeiling, type ActuationDecision } from "./actuation-policy.js";
export { planAction } from "./action-plan.js";
export { describeActuation, type ActuationSummary } from "./actuation-summary.js";
